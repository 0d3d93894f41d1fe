// The Go SDK's relay as the facts describe it (part 1, §3): json.Unmarshal into the typed
// envelope (data a map[string]any), the "urn" alias read into an empty job and trimmed, then a
// json.Encoder with SetEscapeHTML(false) and the trailing newline dropped. One body per line of
// stdin, base64; one answer per line of stdout: "ok <base64>", "decode <why>" or "encode <why>".
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
)

type meta struct {
	ID            string `json:"id"`
	Queue         string `json:"queue"`
	Lang          string `json:"lang"`
	SchemaVersion int    `json:"schema_version"`
	CreatedAt     int64  `json:"created_at"`
}

type deadLetter struct {
	Reason        string  `json:"reason"`
	Error         *string `json:"error"`
	Exception     *string `json:"exception"`
	FailedAt      int64   `json:"failed_at"`
	OriginalQueue string  `json:"original_queue"`
	Attempts      int     `json:"attempts"`
	Lang          string  `json:"lang"`
}

type envelope struct {
	Job        string         `json:"job"`
	TraceID    string         `json:"trace_id"`
	Data       map[string]any `json:"data"`
	Meta       meta           `json:"meta"`
	Attempts   int            `json:"attempts"`
	DeadLetter *deadLetter    `json:"dead_letter,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<30)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line == "" {
			continue
		}
		raw, err := base64.StdEncoding.DecodeString(line)
		if err != nil {
			out.WriteString("decode base64\n")
			continue
		}
		var env envelope
		if err := json.Unmarshal(raw, &env); err != nil {
			out.WriteString("decode " + strings.ReplaceAll(err.Error(), "\n", " ") + "\n")
			continue
		}
		if env.Job == "" {
			var alias struct {
				Urn string `json:"urn"`
			}
			if json.Unmarshal(raw, &alias) == nil {
				env.Job = strings.TrimSpace(alias.Urn)
			}
		}
		var body bytes.Buffer
		encoder := json.NewEncoder(&body)
		encoder.SetEscapeHTML(false)
		if err := encoder.Encode(&env); err != nil {
			out.WriteString("encode " + strings.ReplaceAll(err.Error(), "\n", " ") + "\n")
			continue
		}
		out.WriteString("ok " + base64.StdEncoding.EncodeToString(bytes.TrimSuffix(body.Bytes(), []byte("\n"))) + "\n")
	}
}
