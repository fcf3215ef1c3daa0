//! Signing a phone in: `/phone` shows a QR code of a new one-time sign-in
//! link (and the viewer's signed-in devices, each with a way out), and
//! `/signin/link/{code}` is where the phone lands: a button that signs it
//! in, or why the link no longer does.
//!
//! Plain server HTML, like `/history`: the code is an SVG image in the
//! page, the buttons are form posts, and neither page loads a script. The
//! server's handlers read (and make) what the pages show before rendering
//! them, and put it in the render's context.

use crate::i18n::use_lang;
use crate::page_words::SpeakPage;
use interaction::Timestamp;
use leptos::prelude::*;
use leptos_meta::Title;

/// The path of a sign-in link's page, before its secret.
pub const LINK_PATH: &str = "/signin/link/";

/// The path that ends one of the viewer's sessions (`POST`, field `id`).
pub const SIGN_OUT_DEVICE_PATH: &str = "/phone/sign-out";

/// Whether a phone can reach the desk's public URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// The public URL names this computer itself (a loopback address) or
    /// no address at all (`0.0.0.0`, where the server listens): a phone
    /// cannot open it, and the page says what to do instead.
    ThisComputer,
    /// Some other host; whether it is reachable is the network's business.
    Network,
}

/// How a listed session was opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HowSignedIn {
    /// With a token, on the sign-in form.
    Token,
    /// With a one-time link, from this page.
    Link,
}

/// One of the viewer's signed-in devices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    /// Its session's short id (not its cookie).
    pub id: String,
    /// How it signed in.
    pub how: HowSignedIn,
    /// When.
    pub since: Timestamp,
    /// Until when, unless it signs out first.
    pub until: Timestamp,
    /// Whether it is the browser looking at the page.
    pub this_device: bool,
}

/// What `/phone` shows, as the server's handler made it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhoneLoad {
    /// The desk is open (no token, no people): a phone needs no sign-in,
    /// only the desk's address, `url`.
    Open {
        /// The desk's public URL.
        url: String,
        /// Whether a phone can reach it.
        reach: Reach,
    },
    /// A new one-time link that signs a phone in as the viewer.
    Link {
        /// The link.
        url: String,
        /// Whether a phone can reach it.
        reach: Reach,
        /// The viewer's name; `None` for the server's shared token.
        who: Option<String>,
        /// When the link stops working.
        expires_at: Timestamp,
        /// The viewer's signed-in devices, newest first.
        devices: Vec<Device>,
        /// The applications connected as the viewer's agents.
        connected: Vec<crate::consent::Connected>,
    },
    /// An agent's token: agents do not sign in to the pages.
    Agent,
    /// The database failed; the log says why.
    Unavailable,
}

/// Why a sign-in link signs nothing in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkGone {
    /// It was used already.
    Used,
    /// It expired.
    Expired,
    /// It is no link of this desk.
    Unknown,
}

/// What `/signin/link/{code}` shows, as the server's handler found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkLoad {
    /// The link works: the button signs this device in.
    Valid {
        /// Where the button posts: the link's own path.
        action: String,
        /// Whose sign-in it gives; `None` for the server's shared token.
        who: Option<String>,
        /// When it stops working.
        expires_at: Timestamp,
    },
    /// It signs nothing in, and why.
    Gone(LinkGone),
    /// The database failed; the log says why.
    Unavailable,
}

/// The page at `/phone`.
#[component]
pub fn PhonePage() -> impl IntoView {
    let words = use_lang().page();
    let load = use_context::<PhoneLoad>().unwrap_or(PhoneLoad::Unavailable);
    let body = match load {
        PhoneLoad::Open { url, reach } => view! {
            <p>{words.phone_open_desk}</p>
            <Code url reach/>
        }
        .into_any(),
        PhoneLoad::Link {
            url,
            reach,
            who,
            expires_at,
            devices,
            connected,
        } => view! {
            <p>{(words.phone_scan)(who.as_deref(), &expires_at.short())}</p>
            <Code url reach/>
            <p class="quiet-note">{words.phone_fresh}</p>
            <Devices devices/>
            {who.is_some().then(|| view! { <crate::consent::ConnectedApps connected/> })}
        }
        .into_any(),
        PhoneLoad::Agent => view! { <p class="refused">{words.phone_agent}</p> }.into_any(),
        PhoneLoad::Unavailable => view! { <p class="refused">{words.unavailable}</p> }.into_any(),
    };
    view! {
        <Title text=format!("askdesk: {}", words.phone_title)/>
        <h1>{words.phone_title}</h1>
        {body}
        <p><a href="/">{words.to_waiting}</a></p>
    }
}

/// The QR code of `url`, the link to copy, and a warning when a phone
/// cannot reach it.
#[component]
fn Code(
    /// What the code holds.
    url: String,
    /// Whether a phone can reach it.
    reach: Reach,
) -> impl IntoView {
    let words = use_lang().page();
    let warning = (reach == Reach::ThisComputer).then(|| {
        view! {
            <div class="refused" role="note">
                <p>{(words.phone_loopback)(&url)}</p>
                <p>{words.phone_loopback_how}</p>
            </div>
        }
    });
    let image = qr_image(&url).map(|src| {
        view! { <img class="qr" src=src alt=words.qr_alt width="256" height="256"/> }
    });
    view! {
        {warning}
        <p class="qr-frame">{image}</p>
        <p class="copy-link">
            <label for="link">{words.copy_link}</label>
            <input id="link" type="text" readonly=true value=url/>
        </p>
    }
}

/// The viewer's signed-in devices, each with a way to sign it out.
#[component]
fn Devices(
    /// The devices, newest first.
    devices: Vec<Device>,
) -> impl IntoView {
    let words = use_lang().page();
    let rows = devices
        .into_iter()
        .map(|device| {
            let how = match device.how {
                HowSignedIn::Token => words.by_token,
                HowSignedIn::Link => words.by_link,
            };
            let this = device
                .this_device
                .then(|| view! { " " <strong>{format!("({})", words.this_device)}</strong> });
            let when = (words.since_until)(&device.since.short(), &device.until.short());
            view! {
                <li class="device">
                    <span>{how} {this}</span>
                    " "
                    <span class="when">{when}</span>
                    <form method="post" action=SIGN_OUT_DEVICE_PATH>
                        <input type="hidden" name="id" value=device.id/>
                        <button type="submit" class="quiet">{words.sign_out}</button>
                    </form>
                </li>
            }
        })
        .collect_view();
    view! {
        <section aria-labelledby="devices">
            <h2 id="devices">{words.devices}</h2>
            <ul class="devices">{rows}</ul>
        </section>
    }
}

/// The page at `/signin/link/{code}`.
#[component]
pub fn LinkPage() -> impl IntoView {
    let words = use_lang().page();
    let load = use_context::<LinkLoad>().unwrap_or(LinkLoad::Unavailable);
    let (title, body) = match load {
        LinkLoad::Valid {
            action,
            who,
            expires_at,
        } => (
            words.link_title,
            view! {
                <p>{(words.link_text)(who.as_deref(), &expires_at.short())}</p>
                <form class="signin" method="post" action=action>
                    <button type="submit" class="primary">{words.link_button}</button>
                </form>
            }
            .into_any(),
        ),
        LinkLoad::Gone(gone) => {
            let (title, why) = match gone {
                LinkGone::Used => (words.link_used, None),
                LinkGone::Expired => (words.link_expired, None),
                LinkGone::Unknown => (words.link_unknown, Some(words.link_unknown_text)),
            };
            (
                title,
                view! {
                    {why.map(|why| view! { <p>{why}</p> })}
                    <p>{words.link_again}</p>
                    <p><a href="/signin">{words.sign_in_with_token}</a></p>
                }
                .into_any(),
            )
        }
        LinkLoad::Unavailable => (
            words.something_wrong,
            view! { <p class="refused">{words.unavailable}</p> }.into_any(),
        ),
    };
    view! {
        <Title text=format!("askdesk: {title}")/>
        <h1>{title}</h1>
        {body}
    }
}

/// The QR code of `text` as an SVG image in the page (a `data:` URL, which
/// the pages' policy allows for images): the page needs no request and
/// no script for it, and the SVG, written by the `qrcode` crate, is never
/// parsed into the page's own markup. On the server only.
fn qr_image(_text: &str) -> Option<String> {
    #[cfg(feature = "ssr")]
    {
        use qrcode::render::svg;
        let code = qrcode::QrCode::new(_text.as_bytes()).ok()?;
        // One unit a module: the `img` element scales the vector up, and
        // the image stays as short as the code allows.
        let image = code.render::<svg::Color>().module_dimensions(1, 1).build();
        Some(format!("data:image/svg+xml,{}", crate::encode_path(&image)))
    }
    #[cfg(not(feature = "ssr"))]
    {
        None
    }
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    #[test]
    fn the_code_is_an_svg_image_in_a_data_url_with_nothing_to_break_the_attribute() {
        let src = super::qr_image("http://192.168.1.20:3000/signin/link/0123456789abcdef")
            .expect("a code");
        assert!(src.starts_with("data:image/svg+xml,"), "{src}");
        assert!(src.contains("%3Csvg"), "{src}");
        assert!(!src.contains(['"', '<', '>', ' ', '&', '#']), "{src}");
    }
}
