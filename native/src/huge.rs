//! Huge pages for the key sets' big arrays. A large proof spends about half its time in
//! `KeySet::insert_at`, nearly all of it waiting for a random slot of a table of a
//! gigabyte or more; with 4 KB pages almost every such access misses the TLB as well as
//! the cache. The machines run transparent huge pages in `madvise` mode, so the
//! prover asks for them (`bench/README.md` has the figures).

/// `madvise`'s advice for transparent huge pages (Linux).
#[cfg(target_os = "linux")]
const MADV_HUGEPAGE: i32 = 14;
#[cfg(target_os = "linux")]
const PAGE: usize = 4096;
/// Smaller buffers could not hold an aligned huge page anyway.
const HUGE: usize = 2 << 20;

#[cfg(target_os = "linux")]
extern "C" {
    fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
}

/// Ask for huge pages under `buf`'s allocation (its capacity). Only advice: where the
/// kernel refuses, nothing changes.
pub fn advise<T>(buf: &mut Vec<T>) {
    let bytes = buf.capacity() * std::mem::size_of::<T>();
    if bytes < 2 * HUGE {
        return;
    }
    #[cfg(target_os = "linux")]
    {
        let start = buf.as_mut_ptr() as usize;
        let first = (start + PAGE - 1) & !(PAGE - 1);
        let end = (start + bytes) & !(PAGE - 1);
        // SAFETY: the range lies inside the vector's own allocation, which outlives the
        // call, and MADV_HUGEPAGE changes neither its contents nor its mapping.
        unsafe {
            madvise(first as *mut std::ffi::c_void, end - first, MADV_HUGEPAGE);
        }
    }
}
