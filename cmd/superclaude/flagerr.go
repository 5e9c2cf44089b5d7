package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/superclaude/superclaude/internal/cli"
)

// flagError says a mistake in a command's options in words: pflag says
// "unknown flag: --nosuch", "flag needs an argument: --refresh" and
// `invalid argument "x" for "--max-restarts" flag: strconv.ParseInt:
// parsing "x": invalid syntax`, the last naming a Go function.
func flagError(c *cobra.Command, err error) error {
	cmd := strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
	help := fmt.Sprintf("superclaude %s --help lists them", cmd)
	var (
		notExist *pflag.NotExistError
		noValue  *pflag.ValueRequiredError
		invalid  *pflag.InvalidValueError
	)
	switch {
	case errors.As(err, &notExist):
		given := "--" + notExist.GetSpecifiedName()
		if notExist.GetSpecifiedShortnames() != "" {
			given = "-" + notExist.GetSpecifiedName()[:1]
		}
		var names []string
		c.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
		msg := fmt.Sprintf("%s has no option %s", cmd, given)
		if s := cli.Suggest(strings.TrimLeft(given, "-"), names); s != "" && len(given) > 2 {
			msg += fmt.Sprintf("; did you mean --%s?", s)
		}
		return fmt.Errorf("%s (%s)", msg, help)
	case errors.As(err, &noValue):
		return fmt.Errorf("%s --%s needs a value (superclaude %s --help says what it takes)", cmd, noValue.GetFlag().Name, cmd)
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		if want := valueKind(f.Value.Type()); want != "" {
			return fmt.Errorf("%s --%s: %q is not %s", cmd, f.Name, invalid.GetValue(), want)
		}
	}
	return err
}

// valueKind is what an option of pflag's type typ takes, in words; ""
// for a type whose own error says it (a choice of words, a list).
func valueKind(typ string) string {
	switch typ {
	case "duration":
		return "a length of time (like 30s, 5m or 1h)"
	case "int", "int64", "int32", "uint", "uint64":
		return "a whole number"
	case "float64", "float32":
		return "a number"
	case "bool":
		return "true or false"
	}
	return ""
}
