// Package citations holds no code: its test checks that what the
// repository's comments and documents cite is in the repository.
//
// A newcomer follows a comment's "see docs/design.md#layers" or
// "(supervise/decide.go)" to learn why the code is as it is. A citation of
// a file that was renamed, or of a document that never was in the
// repository (the notes the project was specified from), leaves them with
// nothing to read. So every Go comment and every Markdown file is read
// for references to the repository's files; each must name a file (or,
// for a Markdown link, a heading) that exists. The documents the project
// was specified from are said in place or in docs/, never cited.
package citations
