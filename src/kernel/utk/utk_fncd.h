/* μT-Kernel 1.01/2.0 system-call function codes (fncd): the single source of truth shared by the
 * DS adapter (object class of a call's first argument, create/delete) and the readers (names).
 * Facts: shared/formats/utkernel.md §3. 32-bit INT layout: 0x80000000 | index << 16 | nargs << 8
 * (negative); 16-bit (H8) kernels use 0x8000 | index << 4 | nargs, see UTK_FNCD16. Extended SVCs
 * (fncd >= 0) are not in the table: low 8 bits = subsystem id. Freestanding C99. */
#ifndef EVT_UTK_FNCD_H
#define EVT_UTK_FNCD_H

#include <stdint.h>

/* Object class of the id a call is about (values = TN_* of td_ref_dsname). */
#define UTK_OC_NONE 0x00
#define UTK_OC_TSK  0x01
#define UTK_OC_SEM  0x02
#define UTK_OC_FLG  0x03
#define UTK_OC_MBX  0x04
#define UTK_OC_MBF  0x05
#define UTK_OC_POR  0x06
#define UTK_OC_MTX  0x07
#define UTK_OC_MPL  0x08
#define UTK_OC_MPF  0x09
#define UTK_OC_CYC  0x0a
#define UTK_OC_ALM  0x0b
#define UTK_OC_COUNT_ 0x0c

/* What the call does with that id. */
#define UTK_ROLE_NONE 0  /* no object id */
#define UTK_ROLE_ARG  1  /* argument 1 is an object id of the class */
#define UTK_ROLE_CRE  2  /* creates one: the return value (> 0) is its id */
#define UTK_ROLE_DEL  3  /* deletes argument 1 */

/* X(index, name, nargs, object class, role), index order = μT-Kernel 1.01 tkernel.h. */
#define UTK_FN_TABLE(X) \
    X(0x01, tk_cre_tsk,   1, UTK_OC_TSK,  UTK_ROLE_CRE) \
    X(0x02, tk_del_tsk,   1, UTK_OC_TSK,  UTK_ROLE_DEL) \
    X(0x03, tk_sta_tsk,   2, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x04, tk_ext_tsk,   0, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x05, tk_exd_tsk,   0, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x06, tk_ter_tsk,   1, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x07, tk_dis_dsp,   0, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x08, tk_ena_dsp,   0, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x09, tk_chg_pri,   2, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x0a, tk_rot_rdq,   1, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x0b, tk_rel_wai,   1, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x0c, tk_get_tid,   0, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x0d, tk_get_reg,   4, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x0e, tk_set_reg,   4, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x0f, tk_ref_tsk,   2, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x10, tk_sus_tsk,   1, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x11, tk_rsm_tsk,   1, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x12, tk_frsm_tsk,  1, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x13, tk_slp_tsk,   1, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x14, tk_wup_tsk,   1, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x15, tk_can_wup,   1, UTK_OC_TSK,  UTK_ROLE_ARG) \
    X(0x16, tk_cre_sem,   1, UTK_OC_SEM,  UTK_ROLE_CRE) \
    X(0x17, tk_del_sem,   1, UTK_OC_SEM,  UTK_ROLE_DEL) \
    X(0x18, tk_sig_sem,   2, UTK_OC_SEM,  UTK_ROLE_ARG) \
    X(0x19, tk_wai_sem,   3, UTK_OC_SEM,  UTK_ROLE_ARG) \
    X(0x1a, tk_ref_sem,   2, UTK_OC_SEM,  UTK_ROLE_ARG) \
    X(0x1b, tk_cre_mtx,   1, UTK_OC_MTX,  UTK_ROLE_CRE) \
    X(0x1c, tk_del_mtx,   1, UTK_OC_MTX,  UTK_ROLE_DEL) \
    X(0x1d, tk_loc_mtx,   2, UTK_OC_MTX,  UTK_ROLE_ARG) \
    X(0x1e, tk_unl_mtx,   1, UTK_OC_MTX,  UTK_ROLE_ARG) \
    X(0x1f, tk_ref_mtx,   2, UTK_OC_MTX,  UTK_ROLE_ARG) \
    X(0x20, tk_cre_flg,   1, UTK_OC_FLG,  UTK_ROLE_CRE) \
    X(0x21, tk_del_flg,   1, UTK_OC_FLG,  UTK_ROLE_DEL) \
    X(0x22, tk_set_flg,   2, UTK_OC_FLG,  UTK_ROLE_ARG) \
    X(0x23, tk_clr_flg,   2, UTK_OC_FLG,  UTK_ROLE_ARG) \
    X(0x24, tk_wai_flg,   5, UTK_OC_FLG,  UTK_ROLE_ARG) \
    X(0x25, tk_ref_flg,   2, UTK_OC_FLG,  UTK_ROLE_ARG) \
    X(0x26, tk_cre_mbx,   1, UTK_OC_MBX,  UTK_ROLE_CRE) \
    X(0x27, tk_del_mbx,   1, UTK_OC_MBX,  UTK_ROLE_DEL) \
    X(0x28, tk_snd_mbx,   2, UTK_OC_MBX,  UTK_ROLE_ARG) \
    X(0x29, tk_rcv_mbx,   3, UTK_OC_MBX,  UTK_ROLE_ARG) \
    X(0x2a, tk_ref_mbx,   2, UTK_OC_MBX,  UTK_ROLE_ARG) \
    X(0x2b, tk_cre_mbf,   1, UTK_OC_MBF,  UTK_ROLE_CRE) \
    X(0x2c, tk_del_mbf,   1, UTK_OC_MBF,  UTK_ROLE_DEL) \
    X(0x2d, tk_snd_mbf,   4, UTK_OC_MBF,  UTK_ROLE_ARG) \
    X(0x2e, tk_rcv_mbf,   3, UTK_OC_MBF,  UTK_ROLE_ARG) \
    X(0x2f, tk_ref_mbf,   2, UTK_OC_MBF,  UTK_ROLE_ARG) \
    X(0x30, tk_cre_por,   1, UTK_OC_POR,  UTK_ROLE_CRE) \
    X(0x31, tk_del_por,   1, UTK_OC_POR,  UTK_ROLE_DEL) \
    X(0x32, tk_cal_por,   5, UTK_OC_POR,  UTK_ROLE_ARG) \
    X(0x33, tk_acp_por,   5, UTK_OC_POR,  UTK_ROLE_ARG) \
    X(0x34, tk_fwd_por,   5, UTK_OC_POR,  UTK_ROLE_ARG) \
    X(0x35, tk_rpl_rdv,   3, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x36, tk_ref_por,   2, UTK_OC_POR,  UTK_ROLE_ARG) \
    X(0x37, tk_def_int,   2, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x38, tk_ret_int,   0, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x39, tk_cre_mpl,   1, UTK_OC_MPL,  UTK_ROLE_CRE) \
    X(0x3a, tk_del_mpl,   1, UTK_OC_MPL,  UTK_ROLE_DEL) \
    X(0x3b, tk_get_mpl,   4, UTK_OC_MPL,  UTK_ROLE_ARG) \
    X(0x3c, tk_rel_mpl,   2, UTK_OC_MPL,  UTK_ROLE_ARG) \
    X(0x3d, tk_ref_mpl,   2, UTK_OC_MPL,  UTK_ROLE_ARG) \
    X(0x3e, tk_cre_mpf,   1, UTK_OC_MPF,  UTK_ROLE_CRE) \
    X(0x3f, tk_del_mpf,   1, UTK_OC_MPF,  UTK_ROLE_DEL) \
    X(0x40, tk_get_mpf,   3, UTK_OC_MPF,  UTK_ROLE_ARG) \
    X(0x41, tk_rel_mpf,   2, UTK_OC_MPF,  UTK_ROLE_ARG) \
    X(0x42, tk_ref_mpf,   2, UTK_OC_MPF,  UTK_ROLE_ARG) \
    X(0x43, tk_set_tim,   1, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x44, tk_get_tim,   1, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x45, tk_get_otm,   1, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x46, tk_dly_tsk,   1, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x47, tk_cre_cyc,   1, UTK_OC_CYC,  UTK_ROLE_CRE) \
    X(0x48, tk_del_cyc,   1, UTK_OC_CYC,  UTK_ROLE_DEL) \
    X(0x49, tk_sta_cyc,   1, UTK_OC_CYC,  UTK_ROLE_ARG) \
    X(0x4a, tk_stp_cyc,   1, UTK_OC_CYC,  UTK_ROLE_ARG) \
    X(0x4b, tk_ref_cyc,   2, UTK_OC_CYC,  UTK_ROLE_ARG) \
    X(0x4c, tk_cre_alm,   1, UTK_OC_ALM,  UTK_ROLE_CRE) \
    X(0x4d, tk_del_alm,   1, UTK_OC_ALM,  UTK_ROLE_DEL) \
    X(0x4e, tk_sta_alm,   2, UTK_OC_ALM,  UTK_ROLE_ARG) \
    X(0x4f, tk_stp_alm,   1, UTK_OC_ALM,  UTK_ROLE_ARG) \
    X(0x50, tk_ref_alm,   2, UTK_OC_ALM,  UTK_ROLE_ARG) \
    X(0x51, tk_ref_ver,   1, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x52, tk_ref_sys,   1, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x53, tk_def_ssy,   2, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x54, tk_ref_ssy,   2, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x55, tk_opn_dev,   2, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x56, tk_cls_dev,   2, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x57, tk_rea_dev,   5, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x58, tk_srea_dev,  5, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x59, tk_wri_dev,   5, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x5a, tk_swri_dev,  5, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x5b, tk_wai_dev,   5, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x5c, tk_sus_dev,   1, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x5d, tk_get_dev,   2, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x5e, tk_ref_dev,   2, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x5f, tk_oref_dev,  2, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x60, tk_lst_dev,   3, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x61, tk_evt_dev,   3, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x62, tk_def_dev,   3, UTK_OC_NONE, UTK_ROLE_NONE) \
    X(0x63, tk_ref_idv,   1, UTK_OC_NONE, UTK_ROLE_NONE)

#define UTK_FN_INDEX_MAX 0x63

/* Function code of a table entry (32-bit INT kernels) and its parts. */
#define UTK_FNCD(index, nargs) ((int32_t)(0x80000000u | ((unsigned)(index) << 16) | ((unsigned)(nargs) << 8)))
#define UTK_FNCD16(index, nargs) (0x8000u | ((unsigned)(index) << 4) | (unsigned)(nargs))
#define UTK_FNCD_INDEX(fncd) (((unsigned)(fncd) >> 16) & 0x7FFFu)
#define UTK_FNCD_NARGS(fncd) (((unsigned)(fncd) >> 8) & 0xFFu)
#define UTK_FNCD_IS_SVC(fncd) ((int32_t)(fncd) < 0)   /* < 0: system call; >= 0: extended SVC */

/* TFN_<NAME> constants, e.g. TFN_WAI_SEM = 0x80190300 (as the kernel's tkfncd.h). */
enum utk_tfn {
#define UTK_TFN_ENUM_(ix, name, n, oc, role) UTK_TFN_##name = (int32_t)(0x80000000u | ((unsigned)(ix) << 16) | ((unsigned)(n) << 8)),
    UTK_FN_TABLE(UTK_TFN_ENUM_)
#undef UTK_TFN_ENUM_
};

/* Task states: X(NAME, value). */
#define UTK_TTS_TABLE(X) \
    X(TTS_RUN, 0x01)     \
    X(TTS_RDY, 0x02)     \
    X(TTS_WAI, 0x04)     \
    X(TTS_SUS, 0x08)     \
    X(TTS_WAS, 0x0C)     \
    X(TTS_DMT, 0x10)

#endif
