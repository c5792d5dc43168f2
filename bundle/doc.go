// Package bundle seals a capability into a hash-locked folder that anyone
// can verify offline ([Seal]), and verifies such a folder when it is
// received ([Verify]).
//
// # Layout
//
// A bundle is a directory holding exactly:
//
//	capability.json              the capability (capability.Capability.Marshal)
//	README.md                    a short generated description
//	receipts/<64 hex>.json       validated_local only: the two receipts the
//	                             validation names, each the exact bytes of a
//	                             run's run.receipt.json, named by its SHA-256
//	bundle.lock.json             the lock
//
// The lock (schema browser-capability-lock/v1) is RFC 8785 canonical JSON:
//
//	{"algorithm":"sha256",
//	 "capability":{"execution_hash":"sha256:<hex>","id":"<id>","version":"<semver>"},
//	 "files":[{"path":"README.md","sha256":"sha256:<hex>","size":2153}, ...],
//	 "schema":"browser-capability-lock/v1"}
//
// "files" lists every file of the bundle except the lock itself, sorted by
// path in byte order, each path once; "sha256" is the SHA-256 of the
// file's exact bytes and "size" its length. "capability" repeats the id,
// version and execution hash of capability.json (the execution hash
// excludes state and validation; see package capability). Because the lock
// must be canonical, sorted and list exactly the files present, one folder
// has exactly one lock that verifies it.
//
// # Invariants
//
//   - Seal never overwrites: it fails (wrapping [fs.ErrExist]) when the
//     destination exists in any form, builds the bundle in a sibling
//     directory, verifies it there with Verify's own rules and renames it
//     into place atomically without replacing anything (renameat2
//     RENAME_NOREPLACE on Linux). A crash never leaves a partial bundle at
//     the destination. Directories are 0700, files 0600.
//   - Seal refuses scaffold and draft capabilities, invalid ones, run
//     directories that fail receipt.VerifyRun, validated_local claims that
//     receipt.CheckClaim rejects and content the rules below forbid; only
//     the receipts travel from a run directory, never outputs.json, run
//     locks or recovery proposals.
//   - Verify never follows a symbolic link and never opens anything it did
//     not find by listing the folder through an [os.Root], where every
//     entry is Lstat'ed. A link or an irregular file (FIFO, socket, device)
//     anywhere, the bundle directory itself included, is rejected unread.
//     Opening re-checks every path component, does not block on a FIFO
//     swapped in meanwhile and compares the opened file with the checked
//     one.
//   - Limits ([MaxFiles], [MaxFileBytes], [MaxTotalBytes], [MaxLockBytes],
//     [MaxPathLen], [MaxDepth] and the content limits) are enforced from
//     the sizes the lock declares and the sizes Lstat reports before a byte
//     of content is read; every read goes through a reader limited to the
//     declared size plus one, so a file growing meanwhile is a mismatch,
//     never a larger read.
//   - Files Verify only hashes stream through one fixed 1 MiB buffer:
//     memory does not grow with file size. Files whose content it inspects
//     (capability.json, README.md, receipts) are read whole, within their
//     content limits.
//   - Verify returns a full [Report] even on failure (the
//     golang.org/x/mod/zip.CheckedFiles pattern) and an error that matches
//     [ErrVerify] and every specific sentinel found ([ErrUnlisted],
//     [ErrMissing], [ErrMismatch], [ErrUnsafePath], [ErrUnsafeFile],
//     [ErrForbidden], [ErrLock], [ErrCapability], [ErrClaim], [ErrLimit]).
//     Problems name the file; messages never quote a secret.
//   - A nil error means: the lock is well formed and names capability.json;
//     every entry on disk is the lock, a listed file or a directory of one;
//     every listed file exists, is regular, has a safe path and its
//     declared size and hash; the layout and content rules hold; the
//     capability parses strictly, validates (so its state and provenance
//     kind agree: no hand_authored provenance with an invented discovery
//     record) and is authored, discovered or validated_local; and its
//     receipts support that state.
//
// # Content that never travels
//
// [ErrForbidden] is reported for:
//
//   - a listed path outside the layout;
//   - by name, anywhere: outputs.json, run.lock.json, run.receipt.json,
//     recovery.proposals.json; HTML (.html .htm .xhtml .shtml .mhtml .mht);
//     images (.png .jpg .jpeg .gif .webp .bmp .tif .tiff .ico .avif .heic
//     .heif .svg .jxl); browser storage (Cookies, Local Storage, Session
//     Storage, IndexedDB, Login Data, Web Data, ... in any path element,
//     and .sqlite .sqlite3 .db .ldb .leveldb); network captures (.har
//     .pcap .pcapng);
//   - by magic number, in the first 512 bytes of every listed file
//     whatever its name: PNG, JPEG, GIF, WebP, BMP, TIFF, ICO, JPEG XL,
//     AVIF/HEIF, PDF, SQLite, ZIP, gzip, and documents that start as HTML,
//     SVG or XML;
//   - in capability.json and receipts (every member name and string value)
//     and in README.md (line by line): a credential-shaped string
//     (internal/redact FindSecret and ScanJSON), a URL with a query or a
//     session path parameter (";jsessionid="), a scheme-less path with a
//     query ("/members?id=1"), an HTML tag, an image or HTML data: URI, or
//     the schema of a discovery record, discovery evidence, a developer
//     pack lock, run outputs, a run lock or recovery proposals; README.md
//     must also be UTF-8 text;
//   - in the same three files: a C0 control character other than tab, LF
//     and CR, DEL, a C1 control character (U+0085 included) or U+2028 and
//     U+2029; in capability.json and receipts also a URL or path followed
//     by "?", even with an empty query (docs/FORMAT.md 5.4).
//
// # Decisions where the contract is silent
//
//   - Content limits instead of streaming scans: the secret scanner runs at
//     about 100 MB/s, far below hashing, so inspected files are bounded by
//     the limits of their own packages ([MaxCapabilityBytes],
//     [MaxReceiptBytes]) and a generous [MaxReadmeBytes] for a generated
//     README of a few kilobytes, and are scanned whole. Every other listed
//     file is only hashed and sniffed, at close to raw SHA-256 speed, and
//     is outside the layout anyway.
//   - The identifier detectors (redact.Identifiers) are not applied:
//     digests and receipts are full of long digit runs. capability.Validate
//     owns the rules on the capability's literals, and README.md's text
//     comes from them.
//   - Path rules: the safe set is ASCII letters, digits, '.', '_', '-' and
//     '/', so Unicode look-alikes and normalization forms never reach a
//     file system; case-fold collisions are still checked, with full
//     Unicode simple folding, because the check must not depend on the
//     character set (see [CheckPaths]). Elements may begin with '.' or '-'.
//     COM0 and LPT0 count as reserved, as current Windows documents them.
//   - A receipt is named by its own hash; a name that does not match its
//     content is [ErrMismatch]. The claim is judged only over receipts
//     that passed their file checks: when one did not, the report already
//     fails and Claim stays nil.
//   - An authored or discovered capability carries no receipts ("stray receipts" are
//     [ErrClaim]); Seal refuses run directories for it rather than silently
//     dropping them. For a validated_local capability, Seal verifies every
//     run directory given and includes only the two the validation names.
//   - Runs in a provider-launched browser support a claim only under the
//     explicit [WithAllowLaunchedBrowser] policy, as in package receipt.
//   - A directory holding no listed file, even an empty one, is unlisted
//     (reported with a trailing '/').
//   - Verify refuses a bundle directory that is itself a symbolic link;
//     links among its parents are the caller's business.
//   - An HTML tag is any doctype, comment or closing tag, an opening tag
//     of an HTML element name, or an opening tag of any name with an
//     attribute or self-closing; a bare "<name>" of another name ("<dir>"
//     in the generated README) is a placeholder. A "?" after a URL ends a
//     sentence in README.md prose but is a query in a JSON string.
//   - The claim applies to each bundled receipt the checks of
//     receipt.VerifyRun that need the receipt alone (origins, inputs,
//     outputs, order, sequence, download evidence, record counts), through
//     receipt.CheckClaim: a receipt that reached an origin outside
//     site.allowed_origins never supports a claim.
//   - When the listing stops at [MaxFiles], the lock is looked up
//     directly, so a present lock is never reported missing. The walk
//     never looks into a directory whose entries would pass the count
//     (a bounded listing returns the file system's choice of entries),
//     and then looks up every listed path by name: the report never
//     depends on the order a file system lists in. A missing
//     bundle directory is reported as such, not as a lock entry. Seal
//     with an empty destination is [ErrInvalidArgument].
//   - README.md is generated deterministically (the same capability always
//     gives the same bytes, long text shortened); a sealer may edit it and
//     relock, and Verify scans whatever it holds.
//
// Verification proves that the files are the ones sealed and that the
// capability and its receipts are consistent. Like the receipts it relies
// on, it is not an attestation of a person, a machine or a website.
package bundle
