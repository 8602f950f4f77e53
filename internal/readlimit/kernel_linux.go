package readlimit

import "syscall"

// kernelFS are the magic numbers (statfs(2)) of the file systems whose
// files the kernel makes up: proc, sysfs, debugfs, tracefs, securityfs,
// cgroup and cgroup2, configfs, bpf, efivarfs, pstore, binfmt_misc,
// selinuxfs.
var kernelFS = map[uint32]bool{
	0x9fa0: true, 0x62656572: true, 0x64626720: true, 0x74726163: true, 0x73636673: true,
	0x27e0eb: true, 0x63677270: true, 0x62656570: true, 0xcafe4a11: true, 0xde5e81e4: true, 0x6165676c: true,
	0x42494e4d: true, 0xf97cff8c: true,
}

// kernelMade tells whether path is on one of kernelFS.
func kernelMade(path string) bool {
	var fs syscall.Statfs_t
	// The type is an int32 on 32-bit Linux, where the larger numbers are
	// negative: compared as 32 bits.
	return syscall.Statfs(path, &fs) == nil && kernelFS[uint32(fs.Type)]
}
