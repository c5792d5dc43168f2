package cdpws

import (
	"context"
	"crypto/sha1"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// server accepts one WebSocket and runs fn on it.
func server(t *testing.T, fn func(ctx context.Context, c *websocket.Conn)) string {
	t.Helper()
	done := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		c.SetReadLimit(-1)
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		go func() {
			select {
			case <-done:
				cancel()
			case <-ctx.Done():
			}
		}()
		fn(ctx, c)
	}))
	t.Cleanup(func() {
		close(done)
		s.CloseClientConnections()
		s.Close()
	})
	return "ws" + strings.TrimPrefix(s.URL, "http")
}

func dial(t *testing.T, url string, o Options) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, url, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestReadLimit: a message of exactly the limit is read; one byte more
// ends the connection with a *ProtocolError naming the limit.
func TestReadLimit(t *testing.T) {
	const limit = 1 << 20
	msg := func(n int) []byte {
		b := []byte(`{"method":"A.b","params":{"x":"`)
		b = append(b, strings.Repeat("x", n-len(b)-3)...)
		return append(b, `"}}`...)
	}
	url := server(t, func(ctx context.Context, c *websocket.Conn) {
		_ = c.Write(ctx, websocket.MessageText, msg(limit))
		_ = c.Write(ctx, websocket.MessageText, msg(limit+1))
		_, _, _ = c.Read(ctx)
	})
	c := dial(t, url, Options{MaxMessageBytes: limit})
	b, err := c.Read()
	if err != nil || len(b) != limit {
		t.Fatalf("message at the limit: %d bytes, %v", len(b), err)
	}
	_, err = c.Read()
	var pe *ProtocolError
	if !errors.As(err, &pe) || !strings.Contains(pe.Reason, "read limit of 1048576 bytes") {
		t.Fatalf("message above the limit: %v", err)
	}
	if err2 := c.Send([]byte(`{"id":1,"method":"A.b"}`)); err2 != err {
		t.Fatalf("Send after the failure: %v, want the same error %v", err2, err)
	}
	if c.Err() != err {
		t.Fatalf("Err = %v", c.Err())
	}
}

// TestDefaults: a zero Options takes the documented defaults.
func TestDefaults(t *testing.T) {
	url := server(t, func(ctx context.Context, c *websocket.Conn) { _, _, _ = c.Read(ctx) })
	c := dial(t, url, Options{})
	if c.stall != DefaultStallTimeout {
		t.Errorf("stall timeout %v", c.stall)
	}
	if DefaultMaxMessageBytes != 256<<20 {
		t.Errorf("DefaultMaxMessageBytes = %d", DefaultMaxMessageBytes)
	}
}

// TestResponseZeroDropped: a response with id 0 (rod never sends id 0)
// is dropped, the next message delivered.
func TestResponseZeroDropped(t *testing.T) {
	url := server(t, func(ctx context.Context, c *websocket.Conn) {
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"id":0,"result":{}}`))
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"id":3,"result":{}}`))
		_, _, _ = c.Read(ctx)
	})
	c := dial(t, url, Options{})
	b, err := c.Read()
	if err != nil || string(b) != `{"id":3,"result":{}}` {
		t.Fatalf("Read = %s, %v", b, err)
	}
}

// TestStallWhileWaiting: a call waits, the endpoint answers nothing (not
// even pings): the connection ends with a *StallError within about the
// stall timeout plus the idle second; an idle connection is never pinged.
func TestStallWhileWaiting(t *testing.T) {
	got := make(chan struct{})
	url := server(t, func(ctx context.Context, c *websocket.Conn) {
		// Never read again after the request: pings stay unanswered.
		_, _, _ = c.Read(ctx)
		close(got)
		<-ctx.Done()
	})
	c := dial(t, url, Options{StallTimeout: 500 * time.Millisecond})
	time.Sleep(1500 * time.Millisecond) // idle: nothing waits, nothing fails
	if err := c.Err(); err != nil {
		t.Fatalf("idle connection failed: %v", err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := c.Read()
		errc <- err
	}()
	start := time.Now()
	if err := c.Send([]byte(`{"id":1,"method":"A.b"}`)); err != nil {
		t.Fatal(err)
	}
	<-got
	select {
	case err := <-errc:
		var se *StallError
		if !errors.As(err, &se) {
			t.Fatalf("Read = %v, want a *StallError", err)
		}
		t.Logf("stall found after %v", time.Since(start))
	case <-time.After(10 * time.Second):
		t.Fatal("stall not found")
	}
}

// TestCloseUnblocks: Close ends a Read in progress with ErrClosed at once.
func TestCloseUnblocks(t *testing.T) {
	url := server(t, func(ctx context.Context, c *websocket.Conn) { <-ctx.Done() })
	c := dial(t, url, Options{})
	errc := make(chan error, 1)
	go func() {
		_, err := c.Read()
		errc <- err
	}()
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	c.Close()
	if err := <-errc; !errors.Is(err, ErrClosed) {
		t.Fatalf("Read after Close: %v", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("Close took %v", el)
	}
}

// TestDialRefusesNonWebSocket: an HTTP answer that is not an upgrade is
// an error naming the status.
func TestDialRefusesNonWebSocket(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer s.Close()
	_, err := Dial(context.Background(), "ws"+strings.TrimPrefix(s.URL, "http"), Options{})
	if err == nil || !strings.Contains(err.Error(), "403") {
		t.Fatalf("Dial = %v", err)
	}
}

// TestSlowLargeFrameIsNotAStall: one large frame that arrives slowly
// (pongs cannot be read while it streams) is progress, not a stall.
func TestSlowLargeFrameIsNotAStall(t *testing.T) {
	const size = 1 << 20
	body := append([]byte(`{"id":1,"result":{"x":"`), strings.Repeat("x", size-26)...)
	body = append(body, `"}}`...)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sum := sha1.Sum([]byte(r.Header.Get("Sec-WebSocket-Key") + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		fmt.Fprintf(buf, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n",
			base64.StdEncoding.EncodeToString(sum[:]))
		_ = buf.Flush()
		hdr := binary.BigEndian.AppendUint64([]byte{0x81, 127}, uint64(len(body)))
		_, _ = conn.Write(hdr)
		// 2 s for the frame, four times the stall timeout.
		for chunk := len(body) / 20; len(body) > 0; {
			n := min(chunk, len(body))
			if _, err := conn.Write(body[:n]); err != nil {
				return
			}
			body = body[n:]
			time.Sleep(100 * time.Millisecond)
		}
		_, _ = io.Copy(io.Discard, buf) // until the client closes
	}))
	defer s.Close()
	c := dial(t, "ws"+strings.TrimPrefix(s.URL, "http"), Options{StallTimeout: 500 * time.Millisecond})
	if err := c.Send([]byte(`{"id":1,"method":"A.b"}`)); err != nil {
		t.Fatal(err)
	}
	b, err := c.Read()
	if err != nil || len(b) != size {
		t.Fatalf("Read = %d bytes, %v", len(b), err)
	}
	c.Close()
	s.CloseClientConnections()
}
