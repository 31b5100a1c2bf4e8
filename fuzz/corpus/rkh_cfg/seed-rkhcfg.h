/* rkhcfg.h (cut down) */
#define RKH_CFG_FWK_SIZEOF_EVT              8u
#define RKH_CFG_FWK_MAX_EVT_POOL            (4u)
#define RKH_CFG_TRC_RTFIL_EN                RKH_ENABLED
#define RKH_CFG_TRC_TSTAMP_EN               RKH_DISABLED
#define RKH_CFG_TMR_SIZEOF_NTIMER           16
#define RKH_CFG_QUE_SIZEOF_NELEM            32UL
#define RKH_CFGPORT_TRC_SIZEOF_PTR          16
#define RKH_CFGPORT_TRC_SIZEOF_FUN_PTR      32u
#define RKH_CFGPORT_TRC_SIZEOF_TSTAMP       0x20
#define RKH_CFG_SMA_PPRO_EN                 OTHER_MACRO
