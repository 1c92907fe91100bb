/* Whether the module was compiled with OpenMP (Cython's prange then runs on a thread team;
 * without OpenMP its pragmas are ignored and the loop runs on the calling thread). */
#ifndef MJ_PARALLEL_H
#define MJ_PARALLEL_H

#ifdef _OPENMP
static const int MJ_OPENMP = 1;
#else
static const int MJ_OPENMP = 0;
#endif

#endif
