/* The kernel's own tasks' memory in the matrix configuration (FreeRTOSConfig.h: static allocation
 * always on, in the static-only builds the only way): the idle and timer tasks' TCBs and stacks, for
 * both applications built with it (matrix_app.c, gap_app.c). */
#include "FreeRTOS.h"
#include "task.h"

#if tskKERNEL_VERSION_MAJOR >= 11
typedef configSTACK_DEPTH_TYPE matrix_depth;
#else
typedef uint32_t matrix_depth;
#endif
void vApplicationGetIdleTaskMemory(StaticTask_t **t, StackType_t **s, matrix_depth *n);
void vApplicationGetIdleTaskMemory(StaticTask_t **t, StackType_t **s, matrix_depth *n)
{
    static StaticTask_t tcb;
    static StackType_t st[configMINIMAL_STACK_SIZE];
    *t = &tcb;
    *s = st;
    *n = configMINIMAL_STACK_SIZE;
}
void vApplicationGetTimerTaskMemory(StaticTask_t **t, StackType_t **s, matrix_depth *n);
void vApplicationGetTimerTaskMemory(StaticTask_t **t, StackType_t **s, matrix_depth *n)
{
    static StaticTask_t tcb;
    static StackType_t st[configTIMER_TASK_STACK_DEPTH];
    *t = &tcb;
    *s = st;
    *n = configTIMER_TASK_STACK_DEPTH;
}
