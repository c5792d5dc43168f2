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
