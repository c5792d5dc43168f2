// Package origin is the one place Vera decides what an origin is: parsing,
// normalization, loopback, exact matching and the HTTPS rule. Every other
// package (capability validation, the runtime's URL checks, the browser
// driver's scope, the network gate, the fake driver, the CDP endpoint rule)
// asks it instead of keeping its own copy.
//
// The rules, pinned by one table test (origin_test.go):
//
//   - An origin is scheme://host[:port] with scheme http or https (ws and
//     wss only for URLs a page opens, see [OfURL]). It has no user
//     information, path, query or fragment; [Parse] tolerates one trailing
//     "/" (what url.URL.String and many configuration files write),
//     [Check] does not.
//   - Normalization lower-cases scheme and host, drops the scheme's default
//     port (80 for http/ws, 443 for https/wss) and brackets an IPv6 host.
//     Nothing else is rewritten: a host with a trailing dot ("example.com.")
//     is a different origin to a browser and is refused by Parse, as is a
//     non-ASCII host (write its xn-- form, which is what Chromium reports)
//     and a non-canonical IPv4 or IPv6 literal ("127.1", "[0:0::1]").
//   - Loopback means exactly the three hosts 127.0.0.1, localhost and ::1
//     ([IsLoopbackHost]). Other 127.0.0.0/8 addresses and other spellings
//     are ordinary hosts: they get no HTTP exemption and are not local CDP
//     endpoints.
//   - The HTTPS rule ([Origin.Secure]): every origin uses https except a
//     loopback host over http with an explicit, non-default port.
//   - Two origins match when their normalized forms are equal; a ws(s)
//     origin matches the http(s) origin with the same host and port
//     ([Origin.HTTPEquivalent]).
package origin
