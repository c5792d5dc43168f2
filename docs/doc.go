// Package docs holds FORMAT.md, the specification of every document Vera
// reads or writes, and the test that keeps it honest. It has no code of
// its own: `go test ./docs` is the product.
//
// Invariants (each enforced by the package's test, browser-free and well
// under a second):
//
//   - Every digest FORMAT.md states next to a worked example is recomputed
//     from the stated input with the real code (canonjson, the capability
//     execution hash, receipt.HashInput, download.SetHash, the discovery
//     record hash, raw-bytes file digests); a stale digest fails the test.
//   - Every derived block (canonical form, execution bytes, an action's
//     contract bytes) equals what the code derives from its source block,
//     and every input the page says canonicalization rejects is rejected
//     with the stated error.
//   - The worked examples form one verified chain: the run passes
//     receipt.VerifyRun against the worked capability, the bundle passes
//     bundle.Verify, the developer pack passes discovery.VerifyPack, and
//     the comparison is what receipt.Compare returns for the documented
//     pair of receipts.
//   - Every member table lists exactly the JSON members of its Go type, in
//     encoding order, with the right "written" column (always, if set, if
//     present), so a new member cannot ship undocumented.
//   - Every schema name, state, mode, terminal state, failure category,
//     status, download reason, evidence and mechanism code, verification
//     code, finalize check, comparison code, discovery code and capability
//     code the packages export, and every runtime reason constant (type
//     runtime.Reason, the closed set runtime.Reasons lists), appears in
//     FORMAT.md; the reason table of 8.3 lists exactly those constants.
//
// Decisions:
//
//   - Worked examples are marked with an HTML comment before a fenced block
//     and digest bullets after it (FORMAT.md, "How this page is tested"),
//     so the page stays plain Markdown for readers.
//   - Canonical files (receipts, outputs) are shown indented for reading,
//     marked form="pretty": the bytes they stand for, and every digest, are
//     of their RFC 8785 form, which is exactly the file on disk.
//   - The examples are generated from the real pipeline (evidence, record,
//     draft, developer pack, promotion, a run with the fake driver, a
//     bundle, a comparison) by `go test ./docs -run TestFormat -update`,
//     which also rewrites every stated digest; the run is simulated, so no
//     live receipt is ever fabricated and no validated_local bundle is
//     shown in full.
//   - Exported codes are collected from the packages' source with go/ast
//     (typed constants, name prefixes) rather than from hand-kept lists, so
//     a constant added to a package is caught without touching the test.
//   - The conformance vectors (docs/conformance, FORMAT.md 12.1) have five
//     kinds: capability, run, bundle, finalize and compare. A finalize case is a
//     capability and run folders of the tree handed to receipt.Finalize;
//     its codes are the failed checks of 8.5, since Finalize reports
//     every failing check, not only the first. A second worked capability
//     (teller.member-close, run by the fake driver) carries the business
//     outcome, the approval gate and the native action the first lacks,
//     so every terminal state has a valid and an invalid run; a decoy
//     variant of the first capability, run twice, pins the decoy check.
//     Codes no file can carry stay exempt with the exact reason (the
//     parse-first codes, a 4 MiB document, a failing reader, the checks
//     only CheckClaim applies).
//   - Closed sets have both verdicts (TestConformanceClosedSets). The Go
//     sets are read from the source (typed constants, the set literals of
//     receipt/check.go by go/ast, validate:"oneof" tags), and the values
//     are read from the vector files, so the test judges the tree, not
//     the case tables. Values are pinned in generated documents rather
//     than by hand: one failed run per reason code of runtime.Reasons,
//     paired with the first category of its 8.3 row (which covers every
//     category), a real fake-driver run for effect_unconfirmed (a close
//     click that changes nothing), and a "vocabulary" capability that
//     uses every capability enumeration value the worked capabilities
//     leave out. A capability value counts as accepted at stage
//     execution: scaffold and draft are refused for running by their
//     state, not by their vocabulary.
//   - A compare case is two run folders of the tree, the options handed
//     to receipt.Compare (captures, max_changes, rules) and the expected
//     comparison document itself, not only a verdict: the result is an
//     output, so another implementation must reproduce it byte for byte
//     (alignment messages blanked, they are for a person). Its verdict is
//     the comparison's and its codes the alignment codes. The input
//     folders need only load (4.3), not verify, so a receipt recording a
//     step twice can be compared; they are run cases of their own.
//     TestConformanceCompareCoverage reads the 8.6 values from package
//     receipt's typed constants and demands each in a compare vector
//     where it can appear (alignment failures, changes, verdicts).
//   - docs/conformance/AUDIT.md is generated from a hand-kept table
//     (audit_test.go) that TestAudit checks reference by reference: each
//     Go function and test exists, the FORMAT.md section still says the
//     quoted phrase, each vector id is in the manifest. The problem codes
//     are inventoried from the code itself (sentinels passed when a
//     problem is reported, Code constants named outside their
//     declaration) and each must be in its FORMAT.md table and pinned or
//     exempt; TestFormatCodeTables holds the tables of 8.5, 8.7 and 8.8
//     equal to the Go constants, and TestFormatDetectorLists the closed
//     lists of 5.4 (HTML element names, storage names, extensions) equal
//     to package bundle's.
package docs
