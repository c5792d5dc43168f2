package browser

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"
	"time"

	"github.com/vera-run/vera/runtime"
)

// pngSize decodes the width and height from a PNG's IHDR chunk.
func pngSize(t *testing.T, b []byte) (int, int) {
	t.Helper()
	sig := []byte("\x89PNG\r\n\x1a\n")
	if len(b) < 24 || !bytes.Equal(b[:8], sig) || string(b[12:16]) != "IHDR" {
		t.Fatalf("not a PNG (%d bytes)", len(b))
	}
	return int(binary.BigEndian.Uint32(b[16:20])), int(binary.BigEndian.Uint32(b[20:24]))
}

// TestOpenViewportScreenshot: two drivers of one launched Browser, each
// opened with its own viewport, lay out at that size and capture a PNG
// of exactly that many pixels; a size out of range is ErrInvalidOption
// before the browser is contacted; a closed driver's screenshot is
// runtime.ErrClosed.
func TestOpenViewportScreenshot(t *testing.T) {
	requireBrowser(t)
	s := sites(t)
	b, err := LaunchBrowser(tctx(t, 60*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, sz := range [][2]int{{1280, 800}, {390, 844}} {
		ctx := tctx(t, 30*time.Second)
		rd, err := b.OpenViewport(ctx, sz[0], sz[1])
		if err != nil {
			t.Fatal(err)
		}
		d := rd.(*Driver)
		if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}); err != nil {
			t.Fatal(err)
		}
		if err := d.Navigate(ctx, s.Teller.URL()+"/login"); err != nil {
			t.Fatal(err)
		}
		if got, want := innerSize(t, ctx, d, d.pageSID, "document.readyState === 'complete'"), itoa(sz[0])+"x"+itoa(sz[1]); got != want {
			t.Errorf("inner size %s, want %s", got, want)
		}
		png, err := d.Screenshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if w, h := pngSize(t, png); w != sz[0] || h != sz[1] {
			t.Errorf("screenshot %dx%d, want %dx%d", w, h, sz[0], sz[1])
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Screenshot(ctx); !errors.Is(err, runtime.ErrClosed) {
			t.Errorf("screenshot after Close: %v", err)
		}
	}
	for _, sz := range [][2]int{{0, 800}, {MaxViewportWidth + 1, 800}, {800, MaxViewportHeight + 1}} {
		if _, err := b.OpenViewport(tctx(t, 5*time.Second), sz[0], sz[1]); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("OpenViewport(%d, %d) = %v, want ErrInvalidOption", sz[0], sz[1], err)
		}
	}
	if n := b.Active(); n != 0 {
		t.Errorf("%d drivers open", n)
	}
	var nb *Browser
	if _, err := nb.OpenViewport(tctx(t, time.Second), 10, 10); !errors.Is(err, runtime.ErrInvalidArgument) {
		t.Errorf("nil Browser: %v", err)
	}
}
