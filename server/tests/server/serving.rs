//! The served socket (`server::serving`): the router behind a real
//! listener, as agents and browsers reach it.

use crate::common::start;
use crate::common::{args, combined_answers, release_ask};
use axum::http::StatusCode;
use server::cli::run::Started;
use tokio::{
    io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader},
    net::TcpStream,
};
use tokio_util::sync::CancellationToken;

async fn serve(stop: &CancellationToken) -> (Started, client::Client) {
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    let started = start(&settings, stop.clone()).await.expect("starts");
    let client = client::Client::builder(format!("http://{}", started.addr))
        .build()
        .expect("client");
    (started, client)
}

async fn new_ask(started: &Started) -> String {
    let ask = serde_json::from_value(release_ask()).expect("ask");
    started
        .desk
        .create(ask, &desk::Caller::Unnamed)
        .await
        .expect("created")
        .id
}

/// One kept-alive HTTP/1.1 connection, written and read by hand.
struct Connection {
    stream: BufReader<TcpStream>,
    host: String,
}

impl Connection {
    async fn open(started: &Started) -> Self {
        let tcp = TcpStream::connect(started.addr).await.expect("connect");
        Self {
            stream: BufReader::new(tcp),
            host: started.addr.to_string(),
        }
    }

    async fn get(&mut self, path: &str, headers: &str) {
        let request = format!(
            "GET {path} HTTP/1.1\r\nhost: {}\r\n{headers}\r\n",
            self.host
        );
        self.stream
            .get_mut()
            .write_all(request.as_bytes())
            .await
            .expect("write");
    }

    /// The next reply: its status, its head in lower case, its body (the
    /// server's JSON replies carry a `content-length`).
    async fn reply(&mut self) -> (StatusCode, String, serde_json::Value) {
        let mut head = String::new();
        loop {
            let mut line = String::new();
            let read = self.stream.read_line(&mut line).await.expect("read");
            assert!(
                read > 0,
                "the connection closed before a reply; so far: {head:?}"
            );
            if line == "\r\n" {
                break;
            }
            head.push_str(&line.to_lowercase());
        }
        let status = head[9..12].parse().expect("status code");
        let length: usize = head
            .lines()
            .find_map(|line| line.strip_prefix("content-length: "))
            .unwrap_or_else(|| panic!("a content-length: {head}"))
            .trim()
            .parse()
            .expect("length");
        let mut body = vec![0; length];
        self.stream.read_exact(&mut body).await.expect("body");
        let body = serde_json::from_slice(&body).expect("JSON");
        (StatusCode::from_u16(status).expect("status"), head, body)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_poll_on_a_kept_alive_connection_is_answered_and_the_connection_serves_on() {
    let stop = CancellationToken::new();
    let (started, client) = serve(&stop).await;
    let id = new_ask(&started).await;
    let mut connection = Connection::open(&started).await;
    // Another request first: the long-poll reuses the connection, as a
    // pooling client's does.
    connection.get(&format!("/api/v1/asks/{id}"), "").await;
    let (status, _, before) = connection.reply().await;
    assert_eq!(
        (status, before["status"].as_str()),
        (StatusCode::OK, Some("pending"))
    );

    connection
        .get(
            &format!("/api/v1/asks/{id}?wait=60"),
            "x-askdesk-via: api\r\n",
        )
        .await;
    let answers = serde_json::from_value(combined_answers()).expect("answers");
    let answering = async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        client.answer(&id, &answers).await.expect("answered")
    };
    let ((status, head, waited), answered) = tokio::join!(connection.reply(), answering);
    assert_eq!(status, StatusCode::OK);
    assert_eq!(waited["status"], "answered");
    let stored = serde_json::to_value(&answered.answers).expect("answers");
    assert_eq!(waited["answers"], stored);
    assert!(!head.contains("connection: close"), "{head}");

    connection.get(&format!("/api/v1/asks/{id}"), "").await;
    let (status, _, after) = connection.reply().await;
    assert_eq!(
        (status, after["status"].as_str()),
        (StatusCode::OK, Some("answered"))
    );
    stop.cancel();
    started.task.await.expect("served");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopping_server_answers_its_waiters_with_the_ask_as_it_is_and_then_stops() {
    let stop = CancellationToken::new();
    let (started, _client) = serve(&stop).await;
    let id = new_ask(&started).await;
    let mut waiter = Connection::open(&started).await;
    waiter.get(&format!("/api/v1/asks/{id}?wait=60"), "").await;
    let mut idle = Connection::open(&started).await;
    // The wait is under way once the server has read the request.
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    stop.cancel();
    let (status, _, ask) = waiter.reply().await;
    assert_eq!(
        (status, ask["status"].as_str()),
        (StatusCode::OK, Some("pending"))
    );
    // Every connection closes, the idle one too, and then the server has
    // stopped: nothing listens any more.
    let mut rest = Vec::new();
    idle.stream.read_to_end(&mut rest).await.expect("closed");
    assert!(rest.is_empty(), "{rest:?}");
    tokio::time::timeout(std::time::Duration::from_secs(30), started.task)
        .await
        .expect("the server stops once its connections have closed")
        .expect("served");
    assert!(TcpStream::connect(started.addr).await.is_err());
}

/// The listener records where each connection comes from: wrong tokens
/// are counted per client address, so the eleventh from 127.0.0.1 waits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_tokens_are_counted_by_the_connection_s_address() {
    let stop = CancellationToken::new();
    let mut settings = args(Some(crate::common::TOKEN));
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    let started = start(&settings, stop.clone()).await.expect("starts");
    let mut connection = Connection::open(&started).await;
    for attempt in 1..=10 {
        connection
            .get("/api/v1/asks", "authorization: Bearer guess\r\n")
            .await;
        let (status, _, _) = connection.reply().await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "attempt {attempt}");
    }
    connection
        .get("/api/v1/asks", "authorization: Bearer guess\r\n")
        .await;
    let (status, head, _) = connection.reply().await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{head}");
    stop.cancel();
}

/// A server whose limits are small enough to reach in a test.
async fn serve_limited(
    stop: &CancellationToken,
    connections: u32,
    waits: u32,
    header_timeout: u64,
) -> Started {
    let mut settings = args(None);
    settings.addr = "127.0.0.1:0".parse().expect("addr");
    settings.max_connections_per_address = connections;
    settings.max_waits_per_address = waits;
    settings.header_timeout = header_timeout;
    start(&settings, stop.clone()).await.expect("starts")
}

/// A connection from `source` (another loopback address is another
/// client) to the server.
async fn connect_from(source: [u8; 4], started: &Started) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(std::net::SocketAddr::from((source, 0)))
        .expect("bind");
    socket.connect(started.addr).await.expect("connect")
}

/// Waits until the server counts `n` waiting requests from `source`
/// (their heads read, their places taken or given back), five seconds at
/// most.
async fn until_waiting(started: &Started, source: [u8; 4], n: usize) {
    let addr = std::net::IpAddr::from(source);
    for _ in 0..500 {
        if started.limits.waits.held(addr) == n {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!(
        "{addr} holds {} waits, not {n}",
        started.limits.waits.held(addr)
    );
}

/// Whether the server closes `stream` within `within` (it reads EOF or a
/// reset), having sent nothing.
async fn closed_within(stream: &mut TcpStream, within: std::time::Duration) -> bool {
    let mut buffer = [0u8; 64];
    matches!(
        tokio::time::timeout(within, stream.read(&mut buffer)).await,
        Ok(Ok(0) | Err(_))
    )
}

/// A client that opens sockets and never finishes a request holds at most
/// its address's share, and each for at most the header timeout; another
/// address is served meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_open_sockets_are_capped_per_address_and_closed_after_the_header_timeout() {
    let stop = CancellationToken::new();
    let started = serve_limited(&stop, 5, 0, 2).await;
    let mut held = Vec::new();
    for _ in 0..5 {
        let mut stream = connect_from([127, 0, 0, 3], &started).await;
        stream
            .write_all(b"GET /api/v1/asks HTTP/1.1\r\nhost: x\r\n")
            .await
            .expect("a head, unfinished");
        held.push(stream);
    }
    // The sixth is closed at once, before anything is read.
    let mut sixth = connect_from([127, 0, 0, 3], &started).await;
    assert!(
        closed_within(&mut sixth, std::time::Duration::from_secs(1)).await,
        "over the address's limit"
    );
    // Another address is served as usual.
    let other = client::Client::builder(format!("http://{}", started.addr))
        .build()
        .expect("client");
    other
        .list(client::ListQuery::default())
        .await
        .expect("another client is served");
    // The unfinished heads time out, and their places are given back.
    for stream in &mut held {
        assert!(
            closed_within(stream, std::time::Duration::from_secs(5)).await,
            "a head not finished within the header timeout closes its connection"
        );
    }
    let mut again = Connection {
        stream: BufReader::new(connect_from([127, 0, 0, 3], &started).await),
        host: started.addr.to_string(),
    };
    again.get("/api/v1/asks", "").await;
    assert_eq!(again.reply().await.0, StatusCode::OK);
    stop.cancel();
}

/// Long-polls beyond an address's share get a 429 that says why; one that
/// ends gives its place back; another address waits as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_requests_beyond_an_addresss_share_get_429_and_places_come_back() {
    let stop = CancellationToken::new();
    let started = serve_limited(&stop, 0, 2, 20).await;
    let id = new_ask(&started).await;
    let open = |source| {
        let started = &started;
        async move {
            Connection {
                stream: BufReader::new(connect_from(source, started).await),
                host: started.addr.to_string(),
            }
        }
    };
    let mut waiters = Vec::new();
    for _ in 0..2 {
        let mut waiter = open([127, 0, 0, 4]).await;
        waiter.get(&format!("/api/v1/asks/{id}?wait=60"), "").await;
        waiters.push(waiter);
    }
    until_waiting(&started, [127, 0, 0, 4], 2).await;
    let mut third = open([127, 0, 0, 4]).await;
    third
        .get("/asks/x/events", "accept: text/event-stream\r\n")
        .await;
    let (status, head, body) = third.reply().await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{head}");
    assert!(head.contains("retry-after: "), "{head}");
    let message = body["message"].as_str().expect("a JSON message");
    assert!(message.contains("2 requests waiting"), "{message}");
    // Requests that do not wait are not counted.
    third.get(&format!("/api/v1/asks/{id}"), "").await;
    assert_eq!(third.reply().await.0, StatusCode::OK);
    let mut elsewhere = open([127, 0, 0, 5]).await;
    elsewhere
        .get(&format!("/api/v1/asks/{id}?wait=0"), "")
        .await;
    assert_eq!(elsewhere.reply().await.0, StatusCode::OK);
    // An ended wait gives its place back.
    drop(waiters.pop());
    until_waiting(&started, [127, 0, 0, 4], 1).await;
    third.get(&format!("/api/v1/asks/{id}?wait=0"), "").await;
    assert_eq!(third.reply().await.0, StatusCode::OK);
    stop.cancel();
}
