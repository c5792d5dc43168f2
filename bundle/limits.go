package bundle

import (
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
)

// Limits. [Verify] enforces them from the sizes the lock declares and the
// sizes Lstat reports before it reads a byte of content, and reads every
// file through an [io.LimitedReader] of the declared size plus one byte, so
// a file that grows after the check cannot make it read more.
const (
	// MaxFiles bounds the number of entries in a lock and the number of
	// directory entries Verify lists. A sealed bundle holds at most four
	// files (capability.json, README.md and two receipts) besides the lock.
	MaxFiles = 64
	// MaxFileBytes bounds the size of any one listed file. Every listed file
	// is hashed in a streaming pass through a fixed buffer whatever its
	// size; the content limits below are much smaller.
	MaxFileBytes int64 = 64 << 20
	// MaxTotalBytes bounds the sum of the sizes the lock declares.
	MaxTotalBytes int64 = 256 << 20
	// MaxLockBytes bounds bundle.lock.json.
	MaxLockBytes int64 = 64 << 10
	// MaxPathLen bounds a path in the lock, in bytes.
	MaxPathLen = 200
	// MaxDepth bounds the directory depth Verify walks; deeper entries are
	// reported without being listed.
	MaxDepth = 8
)

// Content limits. A file whose content Verify inspects (it reads the whole
// file into memory to parse and scan it) must be at most this large;
// [ErrLimit] otherwise, decided from the declared and Lstat sizes before
// reading.
const (
	// MaxCapabilityBytes bounds capability.json: the capability package's
	// own document limit.
	MaxCapabilityBytes int64 = capability.MaxDocumentBytes
	// MaxReceiptBytes bounds each receipts/<hex>.json: the receipt
	// package's own limit.
	MaxReceiptBytes int64 = receipt.MaxReceiptBytes
	// MaxReadmeBytes bounds README.md. Seal generates a few kilobytes and
	// shortens long descriptions; the bound leaves room for an operator's
	// notes while keeping the secret scan (about 100 MB/s) well below a
	// tenth of a second per file.
	MaxReadmeBytes int64 = 1 << 20
)
