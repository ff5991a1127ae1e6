//! `bulwark serve`: the web board. A local HTTP server (axum on tokio) with one page, bundled in
//! the binary, and a JSON API behind it. Each client has its own game ([`session::Session`]),
//! created by `POST /api/games`; every game request names it. The engine's work (generation,
//! diagrams, the computer's search) runs on tokio's blocking threads, so a long search does not
//! hold up other clients.
//!
//! | method and path | does |
//! |---|---|
//! | `GET /` | the page |
//! | `GET /api/variants` | the bundled variants, the server's own, whether it watches a file |
//! | `POST /api/games` `{variant?, source?}` | a new game (201) of a bundled variant, of variant text, or of the server's variant |
//! | `GET /api/games/{id}` | the game's state: board picture, side to move, hands, position text, history, result |
//! | `DELETE /api/games/{id}` | forgets the game (204) |
//! | `GET /api/games/{id}/diagram?at=CELL` | the diagram of the piece on a cell: picture, marks, counts |
//! | `GET /api/games/{id}/turns[?from=CELL][&clicks=C1,C2…][&limit=N]` | legal turns, with the clicks that make each (only those starting with the clicks given) |
//! | `POST /api/games/{id}/play` `{turn}` | plays move text |
//! | `POST /api/games/{id}/computer` `{agent?}` | the computer plays the side to move |
//! | `POST /api/games/{id}/undo`, `…/redo` | takes back a turn, plays it again |
//! | `POST /api/games/{id}/position` `{position?, history?}` | starts from a position text and history |
//! | `GET`/`PUT /api/games/{id}/variant` `{source}` | the variant text; replaces the rules (422 with every diagnostic when it does not load) |
//! | `GET /api/games/{id}/export` | the game as a text record that `bulwark` replays |
//! | `GET /api/watch` | with `--watch`: the watched file's text and a version that grows at each change |
//!
//! Errors are JSON `{"error": "…"}` with a 4xx status (400 bad input, 404 unknown game, cell or
//! path, 405 wrong method, 409 not possible now, 421 a `Host` the server does not answer to, 422
//! a variant text that does not load, with `diagnostics`) or 503 (work stopped at the request's
//! time limit); a request that fails never stops the server.
//!
//! Hostile clients: the server answers only to the host names it listens as (a page elsewhere
//! cannot reach it by DNS rebinding); a request's headers must arrive within
//! [`HEADER_TIMEOUT`]; at most [`Config::max_connections`] connections are served at once (more
//! get a 503 and are closed); engine work stops when its client leaves or at
//! [`Config::request_limit`]; and a variant text sent over HTTP may extend only bundled variants
//! and files in the served variant's folder ([`crate::load::Parents::Within`]).

pub mod session;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::Json;
use axum::Router;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

pub use session::{ApiError, Session, Variant};

pub use crate::load::Parents;
use crate::load::{BundledCopy, LoadOptions};
use crate::vm::Stop;

/// The page: HTML, style and script in one file, no build step and nothing fetched elsewhere.
const PAGE: &str = include_str!("page.html");

/// How many games the server keeps; the least recently used goes when a new one would pass it.
pub const MAX_SESSIONS: usize = 256;

/// How often `--watch` looks at the file.
const WATCH_EVERY: Duration = Duration::from_millis(400);

/// How long a client may take to send a request's headers before it is dropped.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);

/// What the server serves, and its limits.
#[derive(Debug, Clone)]
pub struct Config {
    /// Where it listens (127.0.0.1 unless the user asks otherwise).
    pub addr: SocketAddr,
    /// The variant a new game plays when it names none.
    pub variant: Variant,
    /// A variant file to watch: when it changes on disk, pages that follow it reload it.
    pub watch: Option<PathBuf>,
    /// The folder of the served variant file (none for a bundled variant): a variant text sent
    /// by a page may extend files in it, and nothing else but bundled variants.
    pub folder: Option<PathBuf>,
    /// Host names the server answers to besides 127.0.0.1, localhost, `[::1]` and the address
    /// it listens on.
    pub hosts: Vec<String>,
    /// The most time one request's engine work may take before it is stopped (503).
    pub request_limit: Duration,
    /// The most connections served at once.
    pub max_connections: usize,
    /// Which text a bundled name that a page's variant text extends reads (the command line
    /// serves an edited checkout copy, as it reads one).
    pub bundled: BundledCopy,
    /// Landings one run of a piece's program may make before it is reported as a runaway
    /// (see [`crate::vm::WORK_BUDGET`]).
    pub work_budget: u64,
}

impl Config {
    /// A server of `variant` on `addr` with the default limits: no file watched, no folder, a
    /// request limit of 30 s and 256 connections.
    pub fn new(addr: SocketAddr, variant: Variant) -> Config {
        Config {
            addr,
            variant,
            watch: None,
            folder: None,
            hosts: Vec::new(),
            request_limit: Duration::from_secs(30),
            max_connections: 256,
            bundled: BundledCopy::BuiltIn,
            work_budget: crate::vm::WORK_BUDGET,
        }
    }

    /// The host names (lower case, IPv6 in brackets, no port) the server answers to.
    fn allowed_hosts(&self) -> Vec<String> {
        let mut hosts: Vec<String> = ["127.0.0.1", "localhost", "[::1]"]
            .iter()
            .map(|h| (*h).to_string())
            .collect();
        hosts.push(match self.addr.ip() {
            std::net::IpAddr::V4(ip) => ip.to_string(),
            std::net::IpAddr::V6(ip) => format!("[{ip}]"),
        });
        hosts.extend(
            self.hosts
                .iter()
                .map(|h| h.trim_end_matches('.').to_ascii_lowercase()),
        );
        hosts
    }
}

/// The watched file: its text and a version that grows at each change.
#[derive(Debug, Clone)]
struct Watched {
    path: PathBuf,
    source: String,
    version: u64,
}

/// A game and when it was last used (a counter, for evicting the oldest).
struct Slot {
    session: Arc<Mutex<Session>>,
    used: u64,
}

struct AppState {
    default: Variant,
    /// What `extends` in a variant text sent by a page may name, and which text a bundled
    /// name reads.
    loads: LoadOptions,
    /// The most time one request's engine work may take.
    limit: Duration,
    /// Landings one run of a program may make (see [`Config::work_budget`]).
    work_budget: u64,
    bundled: Mutex<HashMap<String, Variant>>,
    sessions: Mutex<HashMap<String, Slot>>,
    clock: AtomicU64,
    seed: u64,
    watched: RwLock<Option<Watched>>,
}

type Shared = Arc<AppState>;

/// Locks a mutex even when a thread panicked while holding it: the data is a game, which every
/// request rebuilds from its turns, so a half-done request cannot leave it inconsistent.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        (status, Json(self.body())).into_response()
    }
}

/// The router over a fresh state.
fn app(config: &Config) -> Router {
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let watched = config.watch.as_ref().map(|p| Watched {
        path: p.clone(),
        source: config.variant.source.clone(),
        version: 1,
    });
    let state = Arc::new(AppState {
        default: config.variant.clone(),
        loads: LoadOptions {
            parents: Parents::Within(config.folder.clone()),
            bundled: config.bundled,
        },
        limit: config.request_limit,
        work_budget: config.work_budget,
        bundled: Mutex::new(HashMap::new()),
        sessions: Mutex::new(HashMap::new()),
        clock: AtomicU64::new(0),
        seed,
        watched: RwLock::new(watched),
    });
    if config.watch.is_some() {
        tokio::spawn(watch(Arc::clone(&state)));
    }
    Router::new()
        .route("/", get(page))
        .route("/api/variants", get(variants))
        .route("/api/watch", get(watched_file))
        .route("/api/games", post(create))
        .route("/api/games/{id}", get(state_of).delete(forget))
        .route("/api/games/{id}/diagram", get(diagram))
        .route("/api/games/{id}/turns", get(turns))
        .route("/api/games/{id}/play", post(play))
        .route("/api/games/{id}/computer", post(computer))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/redo", post(redo))
        .route("/api/games/{id}/position", post(position))
        .route("/api/games/{id}/variant", get(variant_of).put(set_variant))
        .route("/api/games/{id}/export", get(export))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(Guard {
                hosts: config.allowed_hosts(),
                limit: config.request_limit + HEADER_TIMEOUT,
            }),
            guard,
        ))
        .with_state(state)
}

/// What every request is checked against before it is served.
struct Guard {
    /// The host names the server answers to.
    hosts: Vec<String>,
    /// The most time a whole request may take (its body read and its work).
    limit: Duration,
}

/// The host name of a `Host` header: lower case, without the port, IPv6 in brackets.
fn host_name(header: &str) -> String {
    let h = header.trim();
    let name = if h.starts_with('[') {
        h.find(']').map_or(h, |i| &h[..=i])
    } else {
        h.rsplit_once(':').map_or(h, |(n, _)| n)
    };
    name.trim_end_matches('.').to_ascii_lowercase()
}

/// Refuses a request whose `Host` the server does not answer to (421: a page elsewhere that
/// reached this address through a name of its own, as in DNS rebinding), and ends one that takes
/// longer than the limit (503).
async fn guard(
    State(g): State<Arc<Guard>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .map(host_name);
    match host {
        Some(h) if g.hosts.contains(&h) => {}
        Some(h) => {
            return ApiError::new(
                421,
                format!(
                    "this server does not answer to the host `{h}`: open it as http://127.0.0.1 or http://localhost (or start it with --allow-host {h})"
                ),
            )
            .into_response();
        }
        None => {
            return ApiError::new(421, "a request needs a Host header").into_response();
        }
    }
    match tokio::time::timeout(g.limit, next.run(req)).await {
        Ok(r) => r,
        Err(_) => ApiError::new(
            503,
            format!(
                "the request took longer than {} s and was stopped",
                g.limit.as_secs()
            ),
        )
        .into_response(),
    }
}

/// The answer to a connection past [`Config::max_connections`], before it is closed.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 58\r\nConnection: close\r\n\r\n{\"error\": \"too many connections: try again in a moment\"}\n";

/// Serves connections from `listener` until `shutdown` completes: each on a task of its own,
/// HTTP/1.1 with a deadline for the headers, at most `max` at once.
async fn serve_connections(
    listener: tokio::net::TcpListener,
    app: Router,
    max: usize,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let permits = Arc::new(tokio::sync::Semaphore::new(max.max(1)));
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            () = &mut shutdown => break,
            r = listener.accept() => match r {
                Ok((stream, _)) => stream,
                // Out of file descriptors or a connection reset before it was taken: wait a
                // moment rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            tokio::spawn(refuse_busy(stream));
            continue;
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _permit = permit;
            // hyper drops a request's future when its client leaves (and with it the
            // request's stop guard, which stops its engine work).
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIMEOUT)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .await;
        });
    }
}

/// Answers a connection past the cap with a 503 and closes it (after the client's request has
/// been read or a second has passed, so that the close does not reset the answer away).
async fn refuse_busy(mut stream: tokio::net::TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        stream.write_all(BUSY).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 1024];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<(), std::io::Error>(())
    })
    .await;
}

/// A server listening, for tests and embedding: its address, and a handle that stops it.
pub struct Running {
    /// The address it listens on (the port chosen by the system when 0 was asked).
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// The page's address: `http://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Binds the address and serves on a thread of its own until the handle is dropped.
///
/// # Errors
/// When the address cannot be bound.
pub fn spawn(config: Config) -> std::io::Result<Running> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let listener = runtime.block_on(tokio::net::TcpListener::bind(config.addr))?;
    let addr = listener.local_addr()?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let thread = std::thread::spawn(move || {
        runtime.block_on(async move {
            let app = app(&config);
            serve_connections(listener, app, config.max_connections, async {
                let _ = stopped.await;
            })
            .await;
        });
        // Work still running on a blocking thread has been told to stop (its guard dropped).
        runtime.shutdown_timeout(Duration::from_secs(2));
    });
    Ok(Running {
        addr,
        stop: Some(stop),
        thread: Some(thread),
    })
}

/// Binds the address, calls `ready` with the bound address, and serves until the process ends.
///
/// # Errors
/// When the address cannot be bound or the server fails.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        ready(listener.local_addr()?);
        serve_connections(
            listener,
            app(&config),
            config.max_connections,
            std::future::pending(),
        )
        .await;
        Ok(())
    })
}

/// Polls the watched file; a new text (even one that does not load: the page shows why)
/// becomes a new version once two polls in a row read it (see [`settled`]).
async fn watch(state: Shared) {
    let mut tick = tokio::time::interval(WATCH_EVERY);
    let mut pending = None;
    loop {
        tick.tick().await;
        let Some(path) = state
            .watched
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(|w| w.path.clone())
        else {
            return;
        };
        // A regular file of at most the variant size (a link to `/dev/zero` is not read).
        let read = tokio::task::spawn_blocking(move || {
            crate::core::file::read_text(&path, crate::load::MAX_VARIANT_BYTES as u64)
        })
        .await;
        let Ok(Ok(text)) = read else {
            continue;
        };
        let mut w = state
            .watched
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(w) = w.as_mut()
            && let Some(text) = settled(&mut pending, &w.source, text)
        {
            w.source = text;
            w.version += 1;
        }
    }
}

/// Whether a text read from the watched file is to be published: only when it differs from
/// `current` and the poll before read the same (`pending` keeps that read). An editor or a
/// plain write empties the file before it writes the new text: a poll between the two would
/// otherwise publish an empty or cut-off file as a version of its own.
fn settled(pending: &mut Option<String>, current: &str, read: String) -> Option<String> {
    if read == current {
        *pending = None;
        return None;
    }
    if pending.as_deref() == Some(read.as_str()) {
        *pending = None;
        return Some(read);
    }
    *pending = Some(read);
    None
}

/// Sets a [`Stop`] when dropped: when the request's future is dropped because its client left,
/// and when it ends.
struct StopOnDrop(Arc<Stop>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// Runs engine work on a blocking thread, given the request's [`Stop`] (to put its games
/// under), which fires at `limit` or when the request is dropped (its client left); a panic in
/// it is a 500 for this request only.
async fn blocking<T: Send + 'static>(
    state: &AppState,
    f: impl FnOnce(&Arc<Stop>) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let stop = Arc::new(
        Stop::with_budget(
            Some(std::time::Instant::now() + state.limit),
            crate::vm::COMMAND_BUDGET,
        )
        .with_work_budget(state.work_budget),
    );
    let _guard = StopOnDrop(Arc::clone(&stop));
    tokio::task::spawn_blocking(move || f(&stop))
        .await
        .unwrap_or_else(|e| Err(ApiError::new(500, format!("the engine failed: {e}"))))
}

impl AppState {
    /// The game with this id (404 when there is none), marked as used.
    fn session(&self, id: &str) -> Result<Arc<Mutex<Session>>, ApiError> {
        let mut sessions = lock(&self.sessions);
        let used = self.clock.fetch_add(1, Ordering::Relaxed);
        let slot = sessions.get_mut(id).ok_or_else(|| {
            ApiError::new(
                404,
                format!("no game `{id}`: create one with POST /api/games"),
            )
        })?;
        slot.used = used;
        Ok(Arc::clone(&slot.session))
    }

    /// Keeps a new game and returns its id; the least recently used goes when there are too
    /// many.
    fn insert(&self, session: Session) -> String {
        let n = self.clock.fetch_add(1, Ordering::Relaxed);
        let id = format!("{:016x}", crate::search::derive(self.seed, n));
        let mut sessions = lock(&self.sessions);
        if sessions.len() >= MAX_SESSIONS
            && let Some(oldest) = sessions
                .iter()
                .min_by_key(|(_, s)| s.used)
                .map(|(k, _)| k.clone())
        {
            sessions.remove(&oldest);
        }
        sessions.insert(
            id.clone(),
            Slot {
                session: Arc::new(Mutex::new(session)),
                used: n,
            },
        );
        id
    }

    /// A bundled variant, compiled once.
    fn bundled(&self, name: &str) -> Result<Variant, ApiError> {
        if let Some(v) = lock(&self.bundled).get(name) {
            return Ok(v.clone());
        }
        let text = crate::load::bundled_text(name).ok_or_else(|| {
            let names: Vec<&str> = crate::BUNDLED.iter().map(|(n, _)| *n).collect();
            ApiError::new(
                404,
                format!(
                    "no bundled variant `{name}`: the bundled ones are {}",
                    names.join(", ")
                ),
            )
        })?;
        // A bundled game picked by name is the built-in copy, and so are its parents.
        let v = Variant::load(name, text)?;
        lock(&self.bundled).insert(name.to_string(), v.clone());
        Ok(v)
    }
}

/// A JSON body, or a 400 that says what is wrong with it.
fn body<T>(b: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    b.map(|Json(v)| v)
        .map_err(|e| ApiError::new(400, format!("bad request body: {}", e.body_text())))
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(v)| v)
        .map_err(|e| ApiError::new(400, format!("bad query: {}", e.body_text())))
}

/// A request on one game: runs `f` on it on a blocking thread, the game under the request's
/// stop while it runs.
async fn with_session<T: Send + 'static>(
    state: &Shared,
    id: &str,
    f: impl FnOnce(&mut Session) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let s = state.session(id)?;
    blocking(state, move |stop| {
        let mut s = lock(&s);
        s.set_stop(Some(Arc::clone(stop)));
        let r = f(&mut s);
        s.set_stop(None);
        r
    })
    .await
}

async fn page() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        PAGE,
    )
}

async fn not_found() -> ApiError {
    ApiError::new(
        404,
        "no such path: the page is at / and the API under /api/",
    )
}

async fn wrong_method() -> ApiError {
    ApiError::new(405, "this path does not take that method")
}

async fn variants(State(state): State<Shared>) -> Json<Value> {
    let watching = state
        .watched
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .map(|w| w.path.display().to_string());
    Json(json!({
        "bundled": crate::BUNDLED.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        "default": state.default.name,
        "watch": watching,
    }))
}

async fn watched_file(State(state): State<Shared>) -> Result<Json<Value>, ApiError> {
    let w = state
        .watched
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
        .ok_or_else(|| ApiError::new(404, "the server watches no file (start it with --watch)"))?;
    Ok(Json(json!({
        "path": w.path.display().to_string(),
        "version": w.version,
        "source": w.source,
    })))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct NewGame {
    variant: Option<String>,
    source: Option<String>,
    position: Option<String>,
    history: Option<String>,
}

async fn create(
    State(state): State<Shared>,
    b: Result<Json<NewGame>, JsonRejection>,
) -> Result<Response, ApiError> {
    // An empty body is a game of the server's variant.
    let req = match b {
        Err(JsonRejection::MissingJsonContentType(_)) => NewGame::default(),
        b => body(b)?,
    };
    let st = Arc::clone(&state);
    let (id, value) = blocking(&state, move |stop| {
        let variant = match (&req.source, &req.variant) {
            (Some(src), name) => {
                Variant::load_within(name.as_deref().unwrap_or("edited.toml"), src, &st.loads)?
            }
            (None, Some(name)) => st.bundled(name)?,
            (None, None) => st.default.clone(),
        };
        let mut session = Session::new(variant, st.seed);
        session.set_stop(Some(Arc::clone(stop)));
        if req.position.is_some() || req.history.is_some() {
            session.set_position(req.position.as_deref(), req.history.as_deref())?;
        }
        let mut v = session.state()?;
        v["source"] = json!(session.variant().source);
        session.set_stop(None);
        let id = st.insert(session);
        v["id"] = json!(id);
        Ok((id, v))
    })
    .await?;
    Ok((
        StatusCode::CREATED,
        [(header::LOCATION, format!("/api/games/{id}"))],
        Json(value),
    )
        .into_response())
}

async fn state_of(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    with_session(&state, &id, |s| s.state()).await.map(Json)
}

async fn forget(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    lock(&state.sessions)
        .remove(&id)
        .map(|_| StatusCode::NO_CONTENT)
        .ok_or_else(|| ApiError::new(404, format!("no game `{id}`")))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct At {
    at: String,
}

async fn diagram(
    State(state): State<Shared>,
    Path(id): Path<String>,
    q: Result<Query<At>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let at = query(q)?.at;
    with_session(&state, &id, move |s| s.diagram(&at))
        .await
        .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnsQuery {
    from: Option<String>,
    /// Cells, comma-separated: only the turns whose clicks start with them.
    clicks: Option<String>,
    limit: Option<usize>,
}

async fn turns(
    State(state): State<Shared>,
    Path(id): Path<String>,
    q: Result<Query<TurnsQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let q = query(q)?;
    let limit = q.limit.unwrap_or(5_000).min(100_000);
    with_session(&state, &id, move |s| {
        s.turns(q.from.as_deref(), q.clicks.as_deref(), limit)
    })
    .await
    .map(Json)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayBody {
    turn: String,
}

/// The state after a change, with what was played.
fn after(s: &Session, played: Option<String>) -> Result<Json<Value>, ApiError> {
    let mut v = s.state()?;
    if let Some(p) = played {
        v["played"] = json!(p);
    }
    Ok(Json(v))
}

async fn play(
    State(state): State<Shared>,
    Path(id): Path<String>,
    b: Result<Json<PlayBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let turn = body(b)?.turn;
    with_session(&state, &id, move |s| {
        let played = s.play(&turn)?;
        after(s, Some(played))
    })
    .await
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ComputerBody {
    agent: Option<String>,
}

async fn computer(
    State(state): State<Shared>,
    Path(id): Path<String>,
    b: Result<Json<ComputerBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let agent = match b {
        Err(JsonRejection::MissingJsonContentType(_)) => None,
        b => body(b)?.agent,
    };
    with_session(&state, &id, move |s| {
        let played = s.computer(agent.as_deref())?;
        after(s, Some(played))
    })
    .await
}

async fn undo(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    with_session(&state, &id, |s| {
        s.undo()?;
        after(s, None)
    })
    .await
}

async fn redo(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    with_session(&state, &id, |s| {
        s.redo()?;
        after(s, None)
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionBody {
    position: Option<String>,
    history: Option<String>,
}

async fn position(
    State(state): State<Shared>,
    Path(id): Path<String>,
    b: Result<Json<PositionBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let b = body(b)?;
    with_session(&state, &id, move |s| {
        s.set_position(b.position.as_deref(), b.history.as_deref())?;
        after(s, None)
    })
    .await
}

async fn variant_of(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    with_session(&state, &id, |s| {
        Ok(Json(json!({
            "name": s.variant().name,
            "source": s.variant().source,
        })))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceBody {
    source: String,
}

async fn set_variant(
    State(state): State<Shared>,
    Path(id): Path<String>,
    b: Result<Json<SourceBody>, JsonRejection>,
) -> Result<Json<Value>, ApiError> {
    let source = body(b)?.source;
    // The new rules load before the game is locked: a slow load holds up no other request.
    let game = state.session(&id)?;
    let name = lock(&game).variant().name.clone();
    let st = Arc::clone(&state);
    let variant = blocking(&state, move |_| {
        Variant::load_within(&name, &source, &st.loads)
    })
    .await?;
    with_session(&state, &id, move |s| {
        let (kept, dropped) = s.set_variant(variant)?;
        let mut v = s.state()?;
        v["kept"] = json!(kept);
        v["dropped"] = json!(dropped);
        Ok(Json(v))
    })
    .await
}

async fn export(State(state): State<Shared>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = with_session(&state, &id, |s| s.export()).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"bulwark-game-{id}.txt\""),
            ),
        ],
        text,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::settled;

    #[test]
    fn a_watched_text_is_published_once_two_polls_read_it() {
        let mut pending = None;
        // The file as the server holds it: nothing to publish.
        assert_eq!(settled(&mut pending, "old", "old".into()), None);
        // Caught between emptying and writing: held back, then the full text read twice.
        assert_eq!(settled(&mut pending, "old", String::new()), None);
        assert_eq!(settled(&mut pending, "old", "new".into()), None);
        assert_eq!(
            settled(&mut pending, "old", "new".into()),
            Some("new".into())
        );
        assert_eq!(pending, None);
        // A change undone before a second poll read it is never published.
        assert_eq!(settled(&mut pending, "new", "newer".into()), None);
        assert_eq!(settled(&mut pending, "new", "new".into()), None);
        assert_eq!(settled(&mut pending, "new", "newer".into()), None);
        // An empty file that stays empty is a version like any other.
        assert_eq!(settled(&mut pending, "new", String::new()), None);
        assert_eq!(
            settled(&mut pending, "new", String::new()),
            Some(String::new())
        );
    }
}
