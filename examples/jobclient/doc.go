// Command jobclient is the client of Vera's job service
// (examples/jobserver, FORMAT.md §17), with seed 003's commands and exit
// codes:
//
//	jobclient [-url URL] preflight
//	jobclient [-url URL] trial -out DIR
//	jobclient [-url URL] run -spec request.json -out DIR [-input-env NAME=VARIABLE]...
//	jobclient [-url URL] status   -handle DIR/run.json | -id ID
//	jobclient [-url URL] cancel   -handle DIR/run.json | -id ID
//	jobclient [-url URL] download -handle DIR/run.json | -id ID [-out DIR]
//
// URL defaults to $VERA_JOBSERVER_URL, else http://127.0.0.1:18081 (the
// local end of a port-forward); with -id the token is read from
// $VERA_JOBSERVER_TOKEN.
//
// trial fetches the service's trial submission (GET /v1/trial: a
// fixture the service serves itself, two viewports) and runs it as run
// does; it needs nothing but the service and tells whether the service
// and its browser work, independently of any consumer's target.
//
// run and trial exit 0 when the run passed, 2 when it failed with
// ui_assertion_failed, 3 for setup, infrastructure, usage or any other
// unsuccessful run (the service unreachable included), and 4 when
// interrupted by the keyboard; status, cancel and download exit 0 when
// the API operation succeeded, whatever the run's outcome, else 3.
//
// Decisions:
//   - The token is never printed, logged or put in invocation.json: it
//     lives in run.json (0600, in a new 0700 output folder) or in the
//     environment, and a run.json others can read is refused.
//   - Secret inputs need not sit in the spec: -input-env NAME=VARIABLE
//     reads input NAME from the environment when the request is sent.
//   - run refuses an output folder that exists (one folder per
//     invocation), and saves the handle as soon as the run is accepted,
//     so a lost client can recover with status, cancel and download.
//   - Progress follows the service's waiting status requests (wait_ms,
//     after): one request per change, no polling interval. On a terminal
//     it is one line redrawn in place (carriage return and erase); on
//     anything else one plain line per change.
//   - Ctrl-C (the ctx of run) sends DELETE for the run and follows it to
//     its end for at most 30 s, then saves the receipt and artifacts and
//     exits 4. Disconnecting without Ctrl-C does not cancel anything:
//     the service's run budget still applies.
//   - A run with viewports shows each viewport's result in the
//     progress line as soon as that viewport ends (the service records
//     it then), and prints one line per viewport at the run's end
//     (state, code, screenshot); the screenshots are artifacts of the
//     run, saved with the others (artifacts/screenshots/<name>.png).
//   - Downloads are written through an os.Root on the artifacts folder,
//     only for names that are clean relative paths, each checked against
//     its listed size; artifacts.json records each file's SHA-256.
package main
