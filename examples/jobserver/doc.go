// Command jobserver is Vera's job service: seed 003's browser job
// contract v1 over HTTP (FORMAT.md §17), on the bounded runner of
// runtime/jobs, with one Chromium (launched, or -connect to a running
// one) handing out a browser context per run, or over a pool of browser
// endpoints.
//
//	jobserver -state ./state [-listen 127.0.0.1:18081] [-bundles ./bundles] [-no-trial]
//	jobserver -state ./state -endpoint pod-a=ws://127.0.0.1:9222/devtools/browser/ID,slots=2 -endpoint pod-b=http://127.0.0.1:9223
//	jobserver -state ./state -browsers 3
//
// A pool (jobs.WithEndpoints): each -endpoint NAME=URL[,slots=N]
// (repeatable; N from 1 to 64, default 1) is a remote CDP endpoint
// reached with browser.ConnectBrowser (a DevTools ws URL or the
// browser's http://host:port), and -browsers N (at most 16) launches N
// Chromium processes, endpoints local-0 to local-N-1 with one slot
// each; the two may be combined. A run goes to the healthy endpoint
// with the most free slots; an endpoint that fails its health check or
// whose process exits gets no new run, so queued work goes to the
// others, and a run in flight on it ends browser_crashed. The preflight
// lists every endpoint (name, slots, busy, available) and is available
// while one is. -connect and -active are one browser's and are refused
// with a pool; without -endpoint and -browsers the service runs over one
// browser as before.
//
// A launched browser's service offers the trial (GET /v1/trial: a
// submission against a fixture the service serves on its own loopback
// port), and so does a pool of -browsers only; with -connect or any
// -endpoint it does not, as a browser elsewhere cannot reach that
// fixture.
// It listens on loopback only unless -allow-remote is given: the service
// authenticates runs with their tokens, not callers, so reaching it from
// elsewhere needs an authenticated transport in front (an SSH or
// Kubernetes port-forward). The state folder (0700, files 0600) keeps
// every run's record and its token's SHA-256; restarted on the same
// folder, the service serves terminal runs to their tokens and ends runs
// that were in flight interrupted with service_restarted. The handler is
// examples/internal/jobservice; examples/jobclient is its client.
package main
