//! The layered search's later layers on disk (delayed duplicate detection,
//! `docs/solver/layered.md`): a position met in a later layer is appended to that layer's
//! file as its key, duplicates and all, and the file is read back, into the layer's key
//! set, only when the layer's turn comes.  Memory then holds the layer being searched, not
//! every layer queued behind it.
//!
//! Each file is unlinked as soon as it is made, so a prover that is killed leaves nothing
//! behind: the space is the kernel's to free when the last descriptor closes.

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// A walker's buffer for a layer is written out once it holds this much.
const FLUSH_BYTES: usize = 1 << 18;

/// Every later layer's file, made when the first key for it is written.
pub struct LayerFiles {
    dir: PathBuf,
    files: Vec<Mutex<Option<File>>>,
    /// Bytes in the files not yet read back, and the most there ever were.
    held: AtomicU64,
    peak: AtomicU64,
    /// Past this many bytes on disk, writing fails (an operator's bound: the disk is
    /// shared with everything else on the host).
    limit: u64,
    made: AtomicUsize,
}

impl LayerFiles {
    /// Files in `HAVEN_PROVER_SPILL_DIR` (default: the system's temporary folder), at most
    /// `HAVEN_PROVER_DISK_MB` megabytes of them at once (default: `default_mb`).
    pub fn from_env(levels: usize, default_mb: u64) -> Self {
        let dir = std::env::var_os("HAVEN_PROVER_SPILL_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(std::env::temp_dir);
        let mb = std::env::var("HAVEN_PROVER_DISK_MB")
            .ok()
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(default_mb);
        Self::new(levels, dir, mb)
    }

    pub fn new(levels: usize, dir: PathBuf, mb: u64) -> Self {
        LayerFiles {
            dir,
            files: (0..levels).map(|_| Mutex::new(None)).collect(),
            held: AtomicU64::new(0),
            peak: AtomicU64::new(0),
            limit: mb.saturating_mul(1 << 20),
            made: AtomicUsize::new(0),
        }
    }

    fn create(&self, level: usize) -> io::Result<File> {
        let n = self.made.fetch_add(1, Ordering::Relaxed);
        let path = self.dir.join(format!(
            "haven-prover-{}-{}-{}.keys",
            std::process::id(),
            level,
            n
        ));
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)?;
        std::fs::remove_file(&path)?;
        Ok(file)
    }

    /// Append `bytes` (whole records) to layer `level`'s file.
    // `io::Error::other` needs Rust 1.74; Debian's cargo, which CI may use, is 1.65.
    #[allow(unknown_lints, clippy::io_other_error)]
    pub fn append(&self, level: usize, bytes: &[u8]) -> io::Result<()> {
        let held = self.held.fetch_add(bytes.len() as u64, Ordering::Relaxed) + bytes.len() as u64;
        if held > self.limit {
            return Err(io::Error::new(
                io::ErrorKind::Other,
                format!(
                    "the layer files would pass HAVEN_PROVER_DISK_MB ({} MB)",
                    self.limit >> 20
                ),
            ));
        }
        self.peak.fetch_max(held, Ordering::Relaxed);
        let mut slot = self.files[level].lock().expect("a layer file");
        if slot.is_none() {
            *slot = Some(self.create(level)?);
        }
        slot.as_mut().expect("made above").write_all(bytes)
    }

    /// Layer `level`'s keys, in the order written; the file is gone once they are read.
    pub fn take(&self, level: usize) -> io::Result<Option<Keys<'_>>> {
        let Some(mut file) = self.files[level].lock().expect("a layer file").take() else {
            return Ok(None);
        };
        let size = file.seek(SeekFrom::End(0))?;
        file.seek(SeekFrom::Start(0))?;
        Ok(Some(Keys {
            reader: BufReader::with_capacity(1 << 20, file),
            size,
            files: self,
        }))
    }

    /// Bytes on disk now, and at most so far.
    pub fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }

    pub fn peak(&self) -> u64 {
        self.peak.load(Ordering::Relaxed)
    }
}

/// A layer file being read back: one key a call.
pub struct Keys<'a> {
    reader: BufReader<File>,
    size: u64,
    files: &'a LayerFiles,
}

impl Keys<'_> {
    /// The next key into `out`; false at the end.
    pub fn next_into(&mut self, out: &mut Vec<u8>) -> io::Result<bool> {
        let mut len = [0u8; 1];
        match self.reader.read_exact(&mut len) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(false),
            Err(e) => return Err(e),
        }
        out.resize(len[0] as usize, 0);
        self.reader.read_exact(out)?;
        Ok(true)
    }
}

impl Drop for Keys<'_> {
    fn drop(&mut self) {
        self.files.held.fetch_sub(self.size, Ordering::Relaxed);
    }
}

/// One walker's keys not yet written, a buffer per layer.
pub struct Pending {
    buffers: Vec<Vec<u8>>,
}

impl Pending {
    pub fn new(levels: usize) -> Self {
        Pending {
            buffers: (0..levels).map(|_| Vec::new()).collect(),
        }
    }

    /// Queue `key` for layer `level`, writing the layer's buffer out when it is full.
    pub fn push(&mut self, files: &LayerFiles, level: usize, key: &[u8]) -> io::Result<()> {
        let buffer = &mut self.buffers[level];
        buffer.push(u8::try_from(key.len()).expect("a key of at most 255 bytes"));
        buffer.extend_from_slice(key);
        if buffer.len() >= FLUSH_BYTES {
            files.append(level, buffer)?;
            buffer.clear();
        }
        Ok(())
    }

    /// Write every buffer out (before any of these layers is read back).
    pub fn flush(&mut self, files: &LayerFiles) -> io::Result<()> {
        for (level, buffer) in self.buffers.iter_mut().enumerate() {
            if !buffer.is_empty() {
                files.append(level, buffer)?;
                buffer.clear();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{LayerFiles, Pending};

    #[test]
    fn keys_come_back_in_order_and_the_files_leave_nothing() {
        let dir = std::env::temp_dir().join(format!("haven-spill-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let files = LayerFiles::new(4, dir.clone(), 1024);
        let mut pending = Pending::new(4);
        let keys: Vec<Vec<u8>> = (0..100_000u32)
            .map(|i| i.to_le_bytes()[..1 + (i % 4) as usize].to_vec())
            .collect();
        for key in &keys {
            pending.push(&files, 2, key).expect("written");
        }
        pending.push(&files, 3, &[]).expect("an empty key");
        pending.flush(&files).expect("flushed");
        assert!(files.held() > 0);
        assert_eq!(std::fs::read_dir(&dir).expect("the folder").count(), 0);
        let mut back = Vec::new();
        let mut read = files.take(2).expect("read").expect("layer 2 has keys");
        let mut key = Vec::new();
        while read.next_into(&mut key).expect("a record") {
            back.push(key.clone());
        }
        drop(read);
        assert_eq!(back, keys);
        assert!(files.take(1).expect("read").is_none());
        let mut read = files.take(3).expect("read").expect("layer 3 has a key");
        assert!(read.next_into(&mut key).expect("a record") && key.is_empty());
        assert!(!read.next_into(&mut key).expect("the end"));
        drop(read);
        assert_eq!(files.held(), 0);
        std::fs::remove_dir(&dir).expect("an empty folder");
    }

    #[test]
    fn writing_past_the_disk_limit_fails() {
        let files = LayerFiles::new(2, std::env::temp_dir(), 1);
        let mut pending = Pending::new(2);
        let key = [7u8; 200];
        let failed = (0..10_000).any(|_| pending.push(&files, 1, &key).is_err());
        assert!(failed, "1 MB holds about 5,200 keys of 201 bytes");
        assert!(files.peak() <= 1 << 20);
    }
}
