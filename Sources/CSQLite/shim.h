#include <sqlite3.h>
#include <stdint.h>

// NB: Swift cannot express SQLITE_TRANSIENT (a function pointer of value -1); this constant can.
static const sqlite3_destructor_type csqlite_transient = (sqlite3_destructor_type)-1;

// An acquire load of a 32-bit word in memory shared with other processes (the WAL-index header).
static inline uint32_t csqlite_load_acquire_u32(const void *address) {
    return __atomic_load_n((const uint32_t *)address, __ATOMIC_ACQUIRE);
}
