package netgate

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// BenchmarkForward compares one keep-alive GET of a small page straight
// to the server with the same GET through the gate (plain HTTP, the
// path every request of an http origin takes in the browser): the
// difference is the gate's cost per request.
func BenchmarkForward(b *testing.B) {
	page := strings.Repeat("<p>teller</p>\n", 200)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		io.WriteString(w, page)
	}))
	defer srv.Close()
	g, err := New()
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	pu, _ := url.Parse("http://" + g.Addr())
	for _, c := range []struct {
		name  string
		proxy func(*http.Request) (*url.URL, error)
	}{{"direct", nil}, {"gate", http.ProxyURL(pu)}} {
		b.Run(c.name, func(b *testing.B) {
			tr := &http.Transport{Proxy: c.proxy, MaxIdleConnsPerHost: 4}
			defer tr.CloseIdleConnections()
			cl := &http.Client{Transport: tr}
			for b.Loop() {
				res, err := cl.Get(srv.URL + "/members")
				if err != nil {
					b.Fatal(err)
				}
				if n, _ := io.Copy(io.Discard, res.Body); n != int64(len(page)) {
					b.Fatalf("body %d bytes", n)
				}
				res.Body.Close()
			}
		})
	}
}

// TestForwardStreams: the gate buffers a response's writes to the client
// but passes on every byte that arrived before it waits for more, so a
// streamed body reaches the client piece by piece. The server sends the
// second piece only once the client read the first through the gate: a
// gate holding the first piece back deadlocks (the client's timeout
// fails the test).
func TestForwardStreams(t *testing.T) {
	for _, chunked := range []bool{true, false} {
		got := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !chunked {
				w.Header().Set("Content-Length", "12")
			}
			io.WriteString(w, "first;")
			w.(http.Flusher).Flush()
			select {
			case <-got:
			case <-r.Context().Done():
				return
			}
			io.WriteString(w, "second")
		}))
		g, err := New()
		if err != nil {
			t.Fatal(err)
		}
		pu, _ := url.Parse("http://" + g.Addr())
		cl := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
		res, err := cl.Get(srv.URL + "/stream")
		if err != nil {
			t.Fatal(err)
		}
		first := make([]byte, len("first;"))
		if _, err := io.ReadFull(res.Body, first); err != nil || string(first) != "first;" {
			t.Fatalf("chunked %v: first piece %q, %v", chunked, first, err)
		}
		close(got)
		rest, err := io.ReadAll(res.Body)
		if err != nil || string(rest) != "second" {
			t.Fatalf("chunked %v: rest %q, %v", chunked, rest, err)
		}
		res.Body.Close()
		cl.CloseIdleConnections()
		g.Close()
		srv.Close()
	}
}
