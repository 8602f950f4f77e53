// Package data holds the check of the data a function action returns
// (data.bounded, CONTRACT.md §2.6): the data of every call of the run,
// and the echo probe's calls of the functions that return their
// arguments, made with arguments of sizes the probe knows, so that every
// cut and every marker can be judged against what was really left out.
package data
