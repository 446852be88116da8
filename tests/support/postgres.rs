//! A real PostgreSQL server for the tests (issue 30, item 4): the machine's installation
//! (`initdb`, `pg_ctl`, `psql`), a cluster in a temporary directory of its own, reached only on a
//! Unix socket in that directory, stopped and removed when the value is dropped. PostgreSQL
//! refuses to run as root, so under root (CI) the server runs as the `postgres` system account,
//! through `runuser`. A machine without PostgreSQL fails the test, saying what to install; it is
//! never skipped in silence.
//!
//! The binaries: `JERRY_PG_BIN` if set, else `pg_config --bindir`, else the newest
//! `/usr/lib/postgresql/*/bin` (Debian's layout).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The database role and database the tests use.
const ROLE: &str = "jerry";

/// A running server; dropped, it is stopped and its directory removed.
pub struct Postgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    /// The account the server runs as, when it is not the current one (under root).
    account: Option<String>,
}

/// What a failed SQL run printed.
#[derive(Debug)]
pub struct SqlError(pub String);

impl Postgres {
    /// Initialises and starts a server, or panics saying why.
    pub fn start() -> Postgres {
        let bin = binaries();
        let account = running_as_root().then(|| "postgres".to_owned());
        let dir = tempfile::Builder::new().prefix("jerry-pg-").tempdir().expect("a temporary directory");
        if let Some(account) = &account {
            let uid = id(&["-u", account]);
            let gid = id(&["-g", account]);
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))
                .unwrap_or_else(|e| panic!("chown {} to {account}: {e}", dir.path().display()));
        }
        let server = Postgres { dir, bin, account };
        let data = server.dir.path().join("data");
        server.run_as_server(
            "initdb",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "--username".as_ref(),
                ROLE.as_ref(),
                "--auth".as_ref(),
                "trust".as_ref(),
                "--encoding".as_ref(),
                "UTF8".as_ref(),
                "--no-locale".as_ref(),
                "--no-sync".as_ref(),
            ],
        );
        let options = format!(
            "-k {} -c listen_addresses= -c fsync=off -c synchronous_commit=off -c full_page_writes=off",
            server.dir.path().display()
        );
        let log = server.dir.path().join("server.log");
        server.run_as_server(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-l".as_ref(),
                log.as_os_str(),
                "-o".as_ref(),
                options.as_ref(),
                "-w".as_ref(),
                "start".as_ref(),
            ],
        );
        server
    }

    /// The directory of the server's socket (the host to connect to).
    pub fn socket_dir(&self) -> &Path {
        self.dir.path()
    }

    /// The connection parameters of `database`, as libpq and rust-postgres read them.
    #[allow(dead_code)] // used by the store crate's tests, not by every test that includes this
    pub fn params(&self, database: &str) -> String {
        format!("host={} user={ROLE} dbname={database}", self.socket_dir().display())
    }

    /// Creates database `name`.
    pub fn create_database(&self, name: &str) {
        self.sql("postgres", &format!("CREATE DATABASE {name}"), &[]).unwrap_or_else(|e| panic!("{}", e.0));
    }

    /// Runs `sql` in `database` with `psql` (one transaction per statement unless the text says
    /// otherwise; stopping at the first error), with psql variables `vars` (`:'name'` quotes one
    /// as a literal); its output (unaligned, tuples only), or what psql printed on the error.
    pub fn sql(&self, database: &str, sql: &str, vars: &[(&str, &str)]) -> Result<String, SqlError> {
        let mut command = Command::new(self.bin.join("psql"));
        command
            .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h"])
            .arg(self.socket_dir())
            .args(["-U", ROLE, "-d", database]);
        for (name, value) in vars {
            command.arg("-v").arg(format!("{name}={value}"));
        }
        command.args(["-f", "-"]).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = command.spawn().unwrap_or_else(|e| panic!("run psql: {e}"));
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(sql.as_bytes()).unwrap_or_else(|e| panic!("write to psql: {e}"));
        }
        let output = child.wait_with_output().unwrap_or_else(|e| panic!("run psql: {e}"));
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(SqlError(String::from_utf8_lossy(&output.stderr).into_owned()))
        }
    }

    /// A server binary's command, run as the server's account when there is one, in the
    /// server's directory.
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        let mut command = match &self.account {
            Some(account) => {
                let mut c = Command::new("runuser");
                c.args(["-u", account, "--"]).arg(&path);
                c
            }
            None => Command::new(&path),
        };
        command.current_dir(self.dir.path());
        command
    }

    /// Runs a server binary, as the server's account when there is one; panics with its output
    /// (and the server's log) on failure.
    fn run_as_server(&self, program: &str, args: &[&std::ffi::OsStr]) {
        let mut command = self.command(program);
        command.args(args);
        let output = command.output().unwrap_or_else(|e| panic!("run {program}: {e}"));
        if !output.status.success() {
            let log = std::fs::read_to_string(self.dir.path().join("server.log")).unwrap_or_default();
            panic!("{program} failed: {}\nserver log:\n{log}", printed(&output));
        }
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.dir.path().join("data");
        if data.join("postmaster.pid").exists() {
            // Stopped at once: the cluster is thrown away with its directory. Never a panic here:
            // a drop during a failing test's unwinding would abort the run.
            let stop = self.command("pg_ctl").arg("-D").arg(&data).args(["-m", "immediate", "-w", "stop"]).output();
            if !stop.is_ok_and(|o| o.status.success()) {
                eprintln!("the test server in {} did not stop cleanly", self.dir.path().display());
            }
        }
    }
}

/// The directory of PostgreSQL's server binaries, or a panic saying how to get them.
fn binaries() -> PathBuf {
    if let Some(dir) = std::env::var_os("JERRY_PG_BIN") {
        return PathBuf::from(dir);
    }
    let has_server =
        |dir: &Path| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file() && dir.join("psql").is_file();
    if let Ok(output) = Command::new("pg_config").arg("--bindir").output()
        && output.status.success()
    {
        let dir = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
        if has_server(&dir) {
            return dir;
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| Some((entry.file_name().to_str()?.parse().ok()?, entry.path().join("bin"))))
        .filter(|(_, dir)| has_server(dir))
        .collect();
    versions.sort();
    match versions.pop() {
        Some((_, dir)) => dir,
        None => panic!(
            "PostgreSQL's server binaries (initdb, pg_ctl, psql) were not found: install PostgreSQL \
             (Debian: `apt-get install postgresql`), or set JERRY_PG_BIN to their directory"
        ),
    }
}

/// Whether the tests run as root (whose servers run as `postgres`).
fn running_as_root() -> bool {
    id(&["-u"]) == 0
}

/// A number `id` prints (`-u`: the user id, `-g`: the group id).
fn id(args: &[&str]) -> u32 {
    let output = Command::new("id").args(args).output().unwrap_or_else(|e| panic!("run id: {e}"));
    String::from_utf8_lossy(&output.stdout)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("id {args:?}: {}", printed(&output)))
}

/// What a command printed.
fn printed(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}
