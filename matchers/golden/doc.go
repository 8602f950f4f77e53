// Package golden holds MatchGoldenReceipt, the Gomega matcher that compares
// a Glass receipt with a golden file, apart from package matchers so that
// only test packages that use golden files import goldie.
//
//	Expect(page.Do("remove@t9", nil)).To(MatchGoldenReceipt("remove-t9-approved"))
//
// The matcher accepts what every matcher of package matchers accepts (a
// receipt.Receipt, a *receipt.Receipt, a matchers.Receipter, or receipt
// JSON as []byte, string or json.RawMessage) and, like them, tells
// Eventually that only a Receipter is worth polling. Its exported names
// keep the Golden prefix, so a test can dot-import this package next to
// package matchers.
//
// # Flags
//
// Golden files are rewritten with GLASS_UPDATE_GOLDEN=1 or the
// -glass.update flag, never with -update. goldie, which this package
// imports for its diff, registers the flags -update, -template and -clean
// on the default flag set when it is initialised; a test package that
// registers its own -update flag cannot import this package, but can
// import package matchers, which does not import goldie.
package golden
