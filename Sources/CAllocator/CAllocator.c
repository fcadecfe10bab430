#include "CAllocator.h"

#include <stdlib.h> /* defines __GLIBC__ on glibc */

#if defined(__GLIBC__)
#include <malloc.h>

int lw_allocator_keep_large_blocks(int mmap_threshold, int trim_threshold) {
    return mallopt(M_MMAP_THRESHOLD, mmap_threshold) == 1 && mallopt(M_TRIM_THRESHOLD, trim_threshold) == 1;
}
int lw_allocator_trim(void) { return malloc_trim(0); }
#else
int lw_allocator_keep_large_blocks(int mmap_threshold, int trim_threshold) {
    (void)mmap_threshold;
    (void)trim_threshold;
    return 0;
}
int lw_allocator_trim(void) { return 0; }
#endif
