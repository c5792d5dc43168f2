package browser

import (
	"testing"

	"github.com/go-rod/rod/lib/proto"
	"github.com/ysmood/gson"
)

// TestImageFetch checks which paused requests skip Settle's quiet
// window: only an untyped ("Other") request whose Accept header lists
// nothing but image types, as Chromium sends for the favicon.
func TestImageFetch(t *testing.T) {
	const favicon = "image/jxl,image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
	for _, tc := range []struct {
		name   string
		typ    proto.NetworkResourceType
		accept string
		want   bool
	}{
		{"favicon", proto.NetworkResourceTypeOther, favicon, true},
		{"lower-case header", proto.NetworkResourceTypeOther, "image/png", true},
		{"other without accept", proto.NetworkResourceTypeOther, "", false},
		{"other any type", proto.NetworkResourceTypeOther, "*/*", false},
		{"other html", proto.NetworkResourceTypeOther, "text/html,image/webp,*/*;q=0.8", false},
		{"fetch with image accept", proto.NetworkResourceTypeFetch, favicon, false},
		{"script", proto.NetworkResourceTypeScript, favicon, false},
		{"document", proto.NetworkResourceTypeDocument, favicon, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := proto.NetworkHeaders{}
			if tc.accept != "" {
				key := "Accept"
				if tc.name == "lower-case header" {
					key = "accept"
				}
				h[key] = gson.New(tc.accept)
			}
			e := &proto.FetchRequestPaused{ResourceType: tc.typ, Request: &proto.NetworkRequest{URL: "http://127.0.0.1/favicon.ico", Headers: h}}
			if got := imageFetch(e); got != tc.want {
				t.Errorf("imageFetch = %v, want %v", got, tc.want)
			}
		})
	}
	if imageFetch(&proto.FetchRequestPaused{ResourceType: proto.NetworkResourceTypeOther}) {
		t.Error("imageFetch without a request = true")
	}
}

// TestIconNotCausal: a subresource request is awaited from the renderer's
// report until the interceptor decides it; the report is no causal event
// (the request is pending meanwhile), the decision is one, except for the
// document's icon (the confirming round trips do not go round again for
// it).
func TestIconNotCausal(t *testing.T) {
	d := attributionDriver()
	seq := func() uint64 {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.causal.seq
	}
	undecided := func(id proto.NetworkRequestID) bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		_, ok := d.causal.undecided[loadKey{"page", id}]
		return ok
	}
	for _, tc := range []struct {
		id     proto.NetworkRequestID
		icon   bool
		events uint64
	}{{"icon", true, 0}, {"image", false, 1}} {
		before := seq()
		d.requestSent("page", tc.id, "frame")
		if !undecided(tc.id) {
			t.Fatalf("%s: not awaited until decided", tc.id)
		}
		if got := seq() - before; got != 0 {
			t.Errorf("%s: the report made %d causal events, want 0", tc.id, got)
		}
		d.mu.Lock()
		d.causal.requestDecidedLocked("page", tc.id, tc.icon)
		d.mu.Unlock()
		if undecided(tc.id) {
			t.Fatalf("%s: still awaited after its decision", tc.id)
		}
		if got := seq() - before; got != tc.events {
			t.Errorf("%s: %d causal events, want %d", tc.id, got, tc.events)
		}
	}
}
