package strictjson_test

import (
	"fmt"

	"github.com/vera-run/vera/internal/strictjson"
)

func ExampleDecode() {
	type record struct {
		Schema       string `json:"schema"`
		EvidenceHash string `json:"evidence_hash"`
	}
	var r record
	// encoding/json would fill EvidenceHash from "Evidence_Hash".
	err := strictjson.Decode([]byte(`{"schema":"browser-discovery/v2","Evidence_Hash":"sha256:00"}`), &r)
	fmt.Println(err)
	// Output: Evidence_Hash: unknown member "Evidence_Hash"
}

func ExampleDocument_Member() {
	d, err := strictjson.Parse([]byte(`{"SCHEMA":"browser-discovery/v2"}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, ok := d.Member("schema")
	fmt.Println("schema present:", ok)
	// Output: schema present: false
}
