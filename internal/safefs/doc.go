// Package safefs is Vera's owner-only, atomic, [os.Root]-based file plumbing.
// Receipts, bundles and discovery packs write and read their files through it.
//
// Invariants:
//
//   - Every directory it creates has mode 0700 and every file 0600, whatever
//     the process umask: modes are set with an explicit Chmod after creation.
//   - [MkdirExclusive] and [NewRunDir] always create a new directory; an
//     existing one is never reused ([MkdirExclusive] fails with an error
//     wrapping [fs.ErrExist]).
//   - [NewRunDir] refuses, with [ErrInGitWorkTree], a parent that is inside a
//     Git work tree (the parent or any ancestor holds a ".git" entry, file or
//     directory), unless [AllowGitWorkTree] is passed. Run evidence must never
//     be committed by accident.
//   - Writes are atomic: data goes to a temporary file in the destination
//     directory (created exclusively, named ".<name>.tmp-<16 hex>", see
//     [IsTempName]), is fsynced and closed, then published under its final
//     name, and the directory is fsynced. A reader sees either no file or the
//     complete file, never a prefix.
//   - [WriteFileAtomic] never replaces an existing file. It publishes with a
//     hard link (link(2) fails if the name exists, atomically) and removes the
//     temporary name; an existing name yields an error wrapping [fs.ErrExist].
//     [WriteFileAtomicReplace] publishes with rename(2) and may replace a file.
//   - Reads ([ReadFileLimited], [HashFile]) go through an [os.Root], so a name
//     can never escape its root; in addition every path component is checked
//     with Lstat and a symbolic link anywhere in the name is refused with
//     [ErrSymlink], a non-regular file with [ErrNotRegular]. The opened file is
//     compared with the Lstat result ([os.SameFile]) so a swap between check
//     and open is detected. On Unix the open uses O_NONBLOCK so a FIFO swapped
//     in cannot block the caller.
//   - Reads are bounded: at most max+1 bytes are ever read and a larger file
//     fails with [ErrTooLarge]. [HashFile] streams through a fixed 1 MiB
//     buffer, so its memory does not grow with the file size.
//   - Errors are [*fs.PathError] values wrapping a sentinel ([ErrSymlink],
//     [ErrNotRegular], [ErrTooLarge], [ErrInGitWorkTree], [fs.ErrExist],
//     [fs.ErrInvalid]), usable with [errors.Is] and [errors.As].
//
// Decisions where the specification is silent:
//
//   - Names passed with a root are slash-separated and must be local
//     ([filepath.IsLocal] after conversion): no "..", no absolute path, not
//     empty, not ".". Violations wrap [fs.ErrInvalid].
//   - If the file system does not support hard links (EPERM, EOPNOTSUPP,
//     ENOSYS, EMLINK or EXDEV from link(2)), [WriteFileAtomic] falls back to
//     Lstat followed by rename. That fallback has a small race window in which
//     a file created concurrently by another process could be replaced; it is
//     documented rather than hidden.
//   - When a write fails, the temporary file is removed. A crash (or the
//     internal test hook that simulates one) leaves it behind; such leftovers
//     are recognisable with [IsTempName] and can be removed with
//     [RemoveTemps]. A crash after publishing a hard link but before the
//     temporary name is removed leaves both names pointing at the same,
//     complete, content.
//   - [HashFile] refuses a negative expectedSize with [fs.ErrInvalid]: every
//     read in Vera is bounded. A file shorter than expectedSize is not an error;
//     the caller compares the returned size.
//   - [InGitWorkTree] resolves symbolic links in the path when it exists and
//     checks both the lexical and the resolved ancestors.
package safefs
