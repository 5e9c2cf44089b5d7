package proc

// OpenFiles returns the paths of the regular files the process id names
// holds open now, after checking that the PID still belongs to it. A CLI
// that keeps its conversation in a file it holds open while it runs (Codex
// and its rollout file) tells which conversation it has this way, even
// when other copies of the CLI write beside it into the same directory.
func OpenFiles(id Identity) ([]string, error) {
	if err := id.Verify(); err != nil {
		return nil, err
	}
	files, err := openFiles(id.PID)
	if err != nil {
		return nil, err
	}
	// The PID may have changed hands while its files were read.
	if err := id.Verify(); err != nil {
		return nil, err
	}
	return files, nil
}
