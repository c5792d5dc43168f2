package runtime

import (
	"context"
	"testing"
)

func TestApproverOf(t *testing.T) {
	if a := ApproverOf(); a != nil {
		t.Errorf("no options: %v", a)
	}
	calls := 0
	first := ApproverFunc(func(context.Context, ApprovalRequest) (Approval, error) { calls = 1; return Approval{}, nil })
	last := ApproverFunc(func(context.Context, ApprovalRequest) (Approval, error) { calls = 2; return Approval{}, nil })
	a := ApproverOf(WithApprover(first), nil, WithLogger(nil), WithApprover(last))
	if a == nil {
		t.Fatal("nil approver")
	}
	if _, err := a.Approve(context.Background(), ApprovalRequest{}); err != nil || calls != 2 {
		t.Errorf("the last WithApprover does not win: calls=%d err=%v", calls, err)
	}
}
