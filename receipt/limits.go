package receipt

import "github.com/vera-run/vera/internal/runrule"

// Size limits of the run files. [Load] and the Load* functions refuse a
// larger file with [ErrTooLarge] before decoding it; reads never take more
// than the limit plus one byte.
const (
	// MaxReceiptBytes bounds run.receipt.json (a run of the maximum 10,000
	// actions stays well below it).
	MaxReceiptBytes = 8 << 20
	// MaxOutputsBytes bounds outputs.json.
	MaxOutputsBytes = 64 << 20
	// MaxLockBytes bounds run.lock.json, which only holds three hashes.
	MaxLockBytes = 16 << 10
	// MaxProposalsBytes bounds recovery.proposals.json.
	MaxProposalsBytes = 1 << 20
)

// Bounds on individual members, checked by the schema checks.
const (
	// MaxRunIDLen bounds a run id, in bytes.
	MaxRunIDLen = runrule.MaxRunIDLen
	// MaxCodeLen bounds reason codes, mechanism and evidence codes, in
	// bytes.
	MaxCodeLen = 64
	// MaxLabelLen bounds environment labels and approval identities, in
	// bytes.
	MaxLabelLen = 256
	// MaxProposalTextLen bounds a proposal's rationale and uncertainty, in
	// bytes.
	MaxProposalTextLen = 8192
	// MaxDirEntries bounds the entries of a run directory [Load] lists.
	MaxDirEntries = 64
)
