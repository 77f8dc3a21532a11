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

// The descriptor of the file `file` (a main database file SQLite opened, `SQLITE_FCNTL_FILE_POINTER`),
// or -1 when its VFS is not the unix one.
// NB: SQLite has no API for it. Its unix VFS's open file (`unixFile`, sqlite3.c) begins, in every release
// since 3.7, with the io methods, the VFS, the inode information, then `int h`, the descriptor; the VFS
// field is checked to be a unix one before `h` is read.
static inline int csqlite_unix_descriptor(sqlite3_file *file) {
    struct csqlite_unix_file_start {
        const sqlite3_io_methods *methods;
        sqlite3_vfs *vfs;
        void *inode;
        int descriptor;
    };
    const struct csqlite_unix_file_start *start = (const struct csqlite_unix_file_start *)(const void *)file;
    if (start->vfs == 0 || start->vfs != sqlite3_vfs_find(0) || start->vfs->zName == 0) return -1;
    const char *name = start->vfs->zName;
    if (!(name[0] == 'u' && name[1] == 'n' && name[2] == 'i' && name[3] == 'x')) return -1;
    return start->descriptor;
}

#if defined(__linux__)
#include <fcntl.h>
#include <linux/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

// Whether the entry `path` names (a final symbolic link not followed) is the root of a mount, as a file
// bind mount (`mount --bind file other`) makes it: 1 if it is, 0 if not or the kernel cannot tell (Linux
// before 5.8), -1 with errno set when it cannot be examined.
// NB: glibc declares statx only with _GNU_SOURCE, which Swift's Glibc module lacks; the system call has
// the same effect.
static inline int csqlite_is_mount_root(const char *path) {
#ifdef STATX_ATTR_MOUNT_ROOT
    struct statx status;
    if (syscall(SYS_statx, AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_TYPE, &status) != 0) return -1;
    return (status.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) && (status.stx_attributes & STATX_ATTR_MOUNT_ROOT);
#else
    return 0;
#endif
}
#endif
