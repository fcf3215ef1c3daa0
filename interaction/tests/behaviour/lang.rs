use interaction::{Lang, Reason};

#[test]
fn accept_language_picks_by_quality() {
    assert_eq!(
        Lang::from_accept_language("zh-CN,zh;q=0.9,en;q=0.8"),
        Lang::Zh
    );
    assert_eq!(
        Lang::from_accept_language("en-US,en;q=0.9,zh;q=0.8"),
        Lang::En
    );
    assert_eq!(Lang::from_accept_language("fr-FR, zh-TW;q=0.5"), Lang::Zh);
    assert_eq!(Lang::from_accept_language("de"), Lang::En);
    assert_eq!(Lang::from_accept_language(""), Lang::En);
}

#[test]
fn the_locale_picks_the_language() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    };
    assert_eq!(Lang::from_locale(env(&[("LANG", "zh_CN.UTF-8")])), Lang::Zh);
    assert_eq!(
        Lang::from_locale(env(&[("LC_ALL", "en_US.UTF-8"), ("LANG", "zh_CN.UTF-8")])),
        Lang::En
    );
    assert_eq!(Lang::from_locale(env(&[("LANG", "C.UTF-8")])), Lang::En);
    assert_eq!(Lang::from_locale(env(&[])), Lang::En);
}

#[test]
fn reasons_read_in_both_languages_and_validator_messages_stay_as_written() {
    assert_eq!(Reason::Unanswered.text(Lang::En), "unanswered");
    assert_eq!(Reason::Unanswered.text(Lang::Zh), "未回答");
    assert_eq!(Reason::BlankCustom.text(Lang::Zh), "“其他”内容为空");
    let invalid = Reason::Invalid {
        message: "x is wrong".to_owned(),
    };
    assert_eq!(invalid.text(Lang::Zh), "x is wrong");
}
