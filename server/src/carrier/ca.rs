//! The authorities a connector over TLS trusts instead of the public ones: `ca=NAME` names a
//! PEM file in the one folder the operator gave texto at start-up (`--ca-dir`), never a path.
//! A connector is written through the API and read by every node: were `ca=` a path, whoever
//! may change connectors could have every node open any file (a device that never ends, a
//! file whose existence the error would tell).

use std::{
    fmt,
    fs::File,
    io::Read,
    path::{Path, PathBuf},
    str::FromStr,
};

use rustls::{
    RootCertStore,
    pki_types::{CertificateDer, pem::PemObject},
};

/// The most of a CA file read: far above any bundle of authorities.
pub const MOST_BYTES: u64 = 1024 * 1024;
/// The longest name a file system takes.
const LONGEST_NAME: usize = 255;

/// `ca=NAME`: the name of a file in `--ca-dir`, of letters, digits, `.`, `_` and `-`, not
/// beginning with `.`: no folder, so no `/`, no `..` and no absolute path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaName(String);

impl CaName {
    /// The name as written.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for CaName {
    type Err = String;

    fn from_str(name: &str) -> Result<CaName, String> {
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        if name.is_empty() || name.len() > LONGEST_NAME || name.starts_with('.') || !name.chars().all(allowed) {
            return Err(format!(
                "ca={}: the name of a PEM file in the folder --ca-dir names (letters, digits, ., _ and -, \
                 not beginning with .; no path)",
                texto_core::excerpt(name)
            ));
        }
        Ok(CaName(name.to_owned()))
    }
}

impl fmt::Display for CaName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `--ca-dir`: the folder `ca=` names files in, with every symbolic link of its path resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaDir(PathBuf);

impl FromStr for CaDir {
    type Err = String;

    /// A folder that exists.
    fn from_str(path: &str) -> Result<CaDir, String> {
        let folder = Path::new(path).canonicalize().map_err(|e| format!("--ca-dir {path}: {e}"))?;
        if !folder.is_dir() {
            return Err(format!("--ca-dir {path}: not a folder"));
        }
        Ok(CaDir(folder))
    }
}

impl CaDir {
    /// The authorities of the file `name`: a regular file of at most [`MOST_BYTES`] in this
    /// folder (a symbolic link is followed only to a file in it), holding one certificate or more.
    pub fn authorities(&self, name: &CaName) -> Result<RootCertStore, String> {
        let bytes = self.read(name)?;
        let mut roots = RootCertStore::empty();
        for certificate in CertificateDer::pem_slice_iter(&bytes) {
            let certificate = certificate.map_err(|e| format!("ca={name}: {e}"))?;
            roots.add(certificate).map_err(|e| format!("ca={name}: {e}"))?;
        }
        if roots.is_empty() {
            return Err(format!("ca={name}: no certificate in it"));
        }
        Ok(roots)
    }

    fn read(&self, name: &CaName) -> Result<Vec<u8>, String> {
        let path =
            self.0.join(name.as_str()).canonicalize().map_err(|_| format!("ca={name}: no such file in --ca-dir"))?;
        if !path.starts_with(&self.0) {
            return Err(format!("ca={name}: a link out of --ca-dir"));
        }
        // Checked before opening: opening a named pipe would wait for a writer.
        let metadata = path.metadata().map_err(|e| format!("ca={name}: {e}"))?;
        if !metadata.is_file() {
            return Err(format!("ca={name}: not a regular file"));
        }
        if metadata.len() > MOST_BYTES {
            return Err(format!("ca={name}: over {MOST_BYTES} bytes"));
        }
        let mut bytes = Vec::new();
        File::open(&path)
            .and_then(|file| file.take(MOST_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| format!("ca={name}: {e}"))?;
        if bytes.len() as u64 > MOST_BYTES {
            return Err(format!("ca={name}: over {MOST_BYTES} bytes"));
        }
        Ok(bytes)
    }
}

/// The authorities `ca=NAME` names, read from `folder`; refused when texto runs without
/// `--ca-dir`.
pub fn authorities(name: &CaName, folder: Option<&CaDir>) -> Result<RootCertStore, String> {
    folder
        .ok_or_else(|| format!("ca={name}: texto runs without --ca-dir, the folder ca= names its files in"))?
        .authorities(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AUTHORITY: &str = include_str!("../../tests/fixtures/test-authority.pem");

    fn name(text: &str) -> CaName {
        text.parse().expect("a name")
    }

    #[test]
    fn a_name_is_a_file_name_and_never_a_path() {
        for good in ["ca.pem", "carrier-B_2024.crt", "x"] {
            assert_eq!(name(good).as_str(), good);
        }
        for bad in ["", "/etc/ssl/ca.pem", "../ca.pem", "..", ".", ".hidden", "a/b.pem", "a\\b", "ca a.pem", "é.pem"] {
            assert!(bad.parse::<CaName>().is_err(), "{bad:?}");
        }
        assert!("a".repeat(256).parse::<CaName>().is_err());
    }

    #[test]
    fn only_regular_files_in_the_folder_are_read_and_only_so_much() {
        let dir = tempfile::tempdir().expect("a folder");
        let outside = tempfile::tempdir().expect("another folder");
        std::fs::write(dir.path().join("ca.pem"), AUTHORITY).expect("written");
        std::fs::write(dir.path().join("empty.pem"), "not a certificate\n").expect("written");
        std::fs::write(outside.path().join("ca.pem"), AUTHORITY).expect("written");
        let big = format!("{AUTHORITY}{}", "#".repeat(MOST_BYTES as usize));
        std::fs::write(dir.path().join("big.pem"), big).expect("written");
        std::os::unix::fs::symlink(outside.path().join("ca.pem"), dir.path().join("out.pem")).expect("a link");
        std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero.pem")).expect("a link");
        std::os::unix::fs::symlink(dir.path().join("ca.pem"), dir.path().join("in.pem")).expect("a link");
        std::fs::create_dir(dir.path().join("sub")).expect("a folder");
        let folder: CaDir = dir.path().to_str().expect("a path").parse().expect("a folder");

        assert_eq!(folder.authorities(&name("ca.pem")).map(|roots| roots.len()), Ok(1));
        assert_eq!(folder.authorities(&name("in.pem")).map(|roots| roots.len()), Ok(1), "a link inside");
        for (file, said) in [
            ("missing.pem", "no such file in --ca-dir"),
            ("out.pem", "a link out of --ca-dir"),
            ("zero.pem", "a link out of --ca-dir"),
            ("sub", "not a regular file"),
            ("big.pem", "over 1048576 bytes"),
            ("empty.pem", "no certificate in it"),
        ] {
            let error = folder.authorities(&name(file)).map(|_| ()).expect_err(file);
            assert!(error.starts_with(&format!("ca={file}: ")) && error.ends_with(said), "{file}: {error}");
            assert!(!error.contains(&dir.path().display().to_string()), "the folder is not shown: {error}");
        }
        let without = authorities(&name("ca.pem"), None).map(|_| ()).expect_err("no --ca-dir");
        assert!(without.contains("without --ca-dir"), "{without}");
        assert!("/nonexistent/folder".parse::<CaDir>().is_err());
        let file = dir.path().join("ca.pem");
        assert!(file.to_str().expect("a path").parse::<CaDir>().is_err(), "a file is not a folder");
    }
}
