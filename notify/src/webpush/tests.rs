use super::*;

/// RFC 8291, Appendix A. The ECDH secret is computed from the
/// appendix's two keys (ring will not take a fixed private key); the
/// rest must give the appendix's message to the byte.
#[test]
fn encryption_gives_the_rfc_8291_example_to_the_byte() {
    let d = |s: &str| unb64(s).expect("base64url");
    let salt: [u8; 16] = d("DGv6ra1nlYgDCS1FRnbzlw").try_into().expect("16 bytes");
    let body = seal(
        &d("kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs"),
        &d("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
        &d("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"),
        &d("BTBZMqHH6r4Tts7J_aSIgg"),
        &salt,
        b"When I grow up, I want to be a watermelon",
    )
    .expect("sealed");
    assert_eq!(
        b64(&body),
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInm\
         YWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQ\
         exSgSxsj_Qulcy4a-fN"
    );
}
