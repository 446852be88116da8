//! The addon's link set-up (napi-rs's build helper).

fn main() {
    napi_build::setup();
}
