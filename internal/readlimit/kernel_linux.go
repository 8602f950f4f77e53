package readlimit

import "syscall"

// kernelFS are the magic numbers (statfs(2)) of the file systems whose
// files the kernel makes up: proc, sysfs, debugfs, tracefs, securityfs,
// cgroup and cgroup2, configfs, bpf, efivarfs, pstore.
var kernelFS = map[int64]bool{
	0x9fa0: true, 0x62656572: true, 0x64626720: true, 0x74726163: true, 0x73636673: true,
	0x27e0eb: true, 0x63677270: true, 0x62656570: true, 0xcafe4a11: true, 0xde5e81e4: true, 0x6165676c: true,
}

// kernelMade tells whether path is on one of kernelFS.
func kernelMade(path string) bool {
	var fs syscall.Statfs_t
	return syscall.Statfs(path, &fs) == nil && kernelFS[int64(fs.Type)]
}
