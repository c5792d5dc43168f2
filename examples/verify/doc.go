// Command verify checks a sealed capability bundle offline, with no
// browser and no network:
//
//	go run ./examples/verify [-id ID] [-hash sha256:HEX] [-allow-launched] [-json] DIR
//
// It runs bundle.Verify on DIR and prints the full report: every problem,
// not only the first. The exit status is 0 when the bundle is valid, 1 when
// it is not (or cannot be read) and 2 for a usage mistake. -id and -hash
// pin the capability a receiver was told to expect out of band;
// -allow-launched accepts a claim whose runs used a provider-launched
// browser (bundle.WithAllowLaunchedBrowser); -json prints the report as JSON.
//
// Invariants:
//   - Offline and read-only: bundle.Verify lists the folder through an
//     os.Root, never follows a link and writes nothing.
//   - The report is complete: every problem is printed, grouped as in
//     bundle.Report, not only the first.
//   - Exit status 0 only for a valid bundle; a folder that does not exist
//     or cannot be read is invalid (1), not a usage mistake (2).
package main
