// Package download attributes one browser download to the click that caused
// it and verifies its bytes, without depending on any browser: the go-rod
// driver and the runtime call it around the click.
//
// There are two routes, each with its own evidence code:
//
//   - Directory route ([Begin], [Watch.Wait], evidence
//     [EvidenceDirectoryBytes], mechanism [MechanismDirectory]) for a browser
//     the operator owns: lock and snapshot the Downloads folder before the
//     click, then wait for exactly one new, settled regular file. Attribution
//     is by directory correlation only; it does not claim a browser-provided
//     file identity.
//   - Browser-path route ([VerifyPath], evidence [EvidenceBrowserPathBytes],
//     mechanism [MechanismBrowserPath]) for a provider-owned browser whose
//     download behavior is "allowAndName" into a provider-owned folder: the
//     file named by the download's GUID is verified.
//
// The runtime sequence for the directory route is: Begin, arm the browser's
// download event, click, wait for the event (if it never fires the caller
// reports [ErrEventMissing]; if the browser reports it canceled,
// [ErrCanceled]), Wait, Close.
//
// Invariants:
//
//   - Only entries directly inside the folder count; nothing below it, and
//     nothing a path could reach by "..": every entry operation goes through
//     an [os.Root] opened on the folder at Begin, and the folder's own
//     identity is rechecked by path on every poll (removed, renamed or
//     replaced mid-wait fails with [ReasonFolderUnavailable]).
//   - Pre-existing entries are never counted as the download. A pre-existing
//     non-partial entry that changes identity (same name; new inode, size,
//     mtime or type) fails with [ReasonOverwrite]; a new name carrying the
//     exact identity of a pre-existing file (a rename) fails with
//     [ReasonAmbiguous]. A pre-existing file that is deleted is tolerated.
//   - Pre-existing partial downloads never block and are never opened,
//     written, renamed or removed; if one disappears during observation it
//     may have completed under a new name, so attribution fails with
//     [ReasonAmbiguous].
//   - Success requires, at one moment, exactly one new regular file, no new
//     partial download, and the set of new entries with their identities
//     unchanged for the settle window. Two or more new regular files fail
//     with [ReasonConcurrentArrival]; a new symlink, directory or other
//     non-regular entry fails with [ReasonNotRegular]; these are decided on
//     a settled view so a transient temporary does not cause a failure.
//   - Bytes are hashed by streaming SHA-256 from a handle opened after
//     settling; the handle's identity is checked before and after hashing,
//     the byte count must equal the size, and the name is re-lstat'ed after
//     hashing: any difference fails with [ReasonUnstable].
//   - Every failure is an *[Error] whose [Reason] is one of [Reasons]. Its
//     Error() text is sanitized (operation and reason code only); file names,
//     paths and OS messages live only in the wrapped error, which is local
//     detail for local logs (see [Error.Detail]) and must not reach receipts.
//   - [File.Path] is local detail for outputs.json. [SetHash] covers only
//     ordered byte lengths and file hashes, never paths.
//   - Wait and VerifyPath return within one poll interval (at most
//     [MaxPollInterval]) of ctx ending; Close aborts a running Wait the same
//     way. No goroutine is started: observation runs on the caller's
//     goroutine.
//
// Decisions where the contract is silent:
//
//   - The lock is [LockFileName] (".vera-download.lock", mode 0600) inside the
//     observed folder, locked with gofrs/flock. Placing it in the folder makes
//     every cooperating run that sees the same folder (through any path or
//     symlink) contend on it. It is created once and never removed, because
//     unlinking a lock file another process waits on breaks mutual exclusion.
//     It is excluded from snapshots. Begin waits for it with the caller's ctx
//     ([ReasonInterrupted]) and [WithLockTimeout] ([ReasonLocked]). The
//     browser-path route takes no lock.
//   - Partial names (see [IsPartial]): suffixes .crdownload (including
//     Chrome's "Unconfirmed NNN.crdownload"), .part, .partial, .download,
//     .opdownload and .tmp, and Chromium's hidden temporaries
//     (".com.google.Chrome.*", ".org.chromium.Chromium.*",
//     ".com.microsoft.Edge.*"), ASCII case-insensitive. A real download whose
//     final name ends in .tmp therefore times out.
//   - Ignored entries, invisible to every rule: the lock file, ".DS_Store",
//     ".localized", "Thumbs.db", "desktop.ini", macOS AppleDouble "._*"
//     companions and WSL "*:Zone.Identifier" companions. The operating system
//     writes these next to downloads on its own.
//   - Identity is (device, inode, size, mtime in ns, type). Where the
//     platform exposes no device/inode (non-unix), it degrades to size,
//     mtime and type, and rename detection is off. A pre-existing
//     directory only counts as overwritten when replaced (its mtime follows
//     its contents, which are out of scope). Permission changes are ignored.
//   - Sweeping pre-existing identities costs one lstat per entry; folders
//     with more than 512 pre-existing entries are swept every few polls (at
//     most every 20) and always right before a decision, so overwrites are
//     still caught before success is reported.
//   - The settle window is measured on the observation loop: a file is
//     hashed no sooner than settle after its final state was first seen, so
//     completion-to-evidence latency is about settle + one poll + hashing.
//   - Wait's timeout starts when Wait is called and bounds observation;
//     hashing is bounded by ctx and [WithMaxBytes] (default
//     [DefaultMaxBytes], never above [MaxSafeBytes] so sizes stay exact in
//     canonical JSON). A caller context ending is [ReasonInterrupted] (the
//     context error stays in the chain), distinct from [ReasonTimeout].
//   - An empty dir in Begin selects [DefaultDirectory] (home/Downloads; no
//     browser or desktop settings are read). VerifyPath has no default.
//   - GUIDs accepted by VerifyPath are 1..[MaxGUIDLength] ASCII letters,
//     digits, '-' and '_' (Chrome's lowercase UUIDs), so a GUID can never
//     name anything but a plain entry directly inside the folder.
//   - [SetHash] hashes the RFC 8785 form produced by internal/canonjson;
//     sizes are limited to 2^53-1 so they stay exact in canonical JSON.
package download
