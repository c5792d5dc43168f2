// Command jobserver is Vera's job service: seed 003's browser job
// contract v1 over HTTP (FORMAT.md §17), on the bounded runner of
// runtime/jobs, with one Chromium (launched, or -connect to a running
// one) handing out a browser context per run.
//
//	jobserver -state ./state [-listen 127.0.0.1:18081] [-bundles ./bundles] [-no-trial]
//
// A launched browser's service offers the trial (GET /v1/trial: a
// submission against a fixture the service serves on its own loopback
// port); with -connect it does not, as a browser elsewhere cannot reach
// that fixture.
// It listens on loopback only unless -allow-remote is given: the service
// authenticates runs with their tokens, not callers, so reaching it from
// elsewhere needs an authenticated transport in front (an SSH or
// Kubernetes port-forward). The state folder (0700, files 0600) keeps
// every run's record and its token's SHA-256; restarted on the same
// folder, the service serves terminal runs to their tokens and ends runs
// that were in flight interrupted with service_restarted. The handler is
// examples/internal/jobservice; examples/jobclient is its client.
package main
