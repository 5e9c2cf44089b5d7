package hosts

import (
	"context"
	"os/exec"

	"github.com/superclaude/superclaude/internal/dashboard"
	"github.com/superclaude/superclaude/internal/remote"
)

// Dashboard is how +dashboard reaches the hosts the user's fleets run on
// (none when the record names none).
func Dashboard() dashboard.Hosts {
	rec, err := Record()
	if err != nil {
		return dashboard.Hosts{}
	}
	ssh := &remote.SSH{}
	return dashboard.Hosts{
		Hosts: rec.Up(),
		Call: func(ctx context.Context, host, op string, args, result any) error {
			return client(ssh, host).Call(ctx, op, args, result)
		},
		Terminal: func(host string, argv []string) (*exec.Cmd, error) {
			return ssh.Command(context.Background(), host, true, argv...)
		},
		Record: rec,
	}
}
