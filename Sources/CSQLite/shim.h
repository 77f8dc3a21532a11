#include <sqlite3.h>
#include <stdint.h>

// NB: Swift cannot express SQLITE_TRANSIENT (a function pointer of value -1); this constant can.
static const sqlite3_destructor_type csqlite_transient = (sqlite3_destructor_type)-1;

// An acquire load of a 32-bit word in memory shared with other processes (the WAL-index header).
static inline uint32_t csqlite_load_acquire_u32(const void *address) {
    return __atomic_load_n((const uint32_t *)address, __ATOMIC_ACQUIRE);
}

// NB: sqlite3_db_config is variadic, which Swift cannot call. Turns checkpoint-on-close off (0) or on (1):
// off while a file is being checked, so closing a connection to a file that is not ours never
// checkpoints its write-ahead log into it nor deletes that log.
static inline int csqlite_set_checkpoint_on_close(sqlite3 *db, int enabled) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, enabled ? 0 : 1, (int *)0);
}
