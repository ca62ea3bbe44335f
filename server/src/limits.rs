//! How often a player and an address may submit runs: a token bucket per player and per
//! address (governor's keyed limiters), refilled over a minute. Every attempt counts, accepted
//! or not, so a client cannot make the server play more than its share.

use crate::refusal::Refusal;
use axum::http::StatusCode;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::net::IpAddr;
use std::num::NonZeroU32;

/// The submission limits of one server.
#[derive(Debug)]
pub struct SubmitLimits {
    per_player: DefaultKeyedRateLimiter<String>,
    per_address: DefaultKeyedRateLimiter<IpAddr>,
}

impl SubmitLimits {
    /// At most `per_player` submissions per player and `per_address` per address a minute.
    pub fn new(per_player: NonZeroU32, per_address: NonZeroU32) -> SubmitLimits {
        SubmitLimits {
            per_player: RateLimiter::keyed(Quota::per_minute(per_player)),
            per_address: RateLimiter::keyed(Quota::per_minute(per_address)),
        }
    }

    /// Counts a submission from `address`, or refuses it when the address has sent its share.
    pub fn address(&self, address: IpAddr) -> Result<(), Refusal> {
        self.per_address
            .check_key(&address)
            .map_err(|not_until| too_many("this address", &not_until))
    }

    /// Counts a submission of `player`, or refuses it when the player has sent their share.
    pub fn player(&self, player: &str) -> Result<(), Refusal> {
        self.per_player
            .check_key(&player.to_owned())
            .map_err(|not_until| too_many("this player", &not_until))
    }

    /// Forgets the players and addresses whose buckets are full again, so the limiters' memory
    /// stays the size of the last minute's senders.
    pub fn forget_idle(&self) {
        self.per_player.retain_recent();
        self.per_player.shrink_to_fit();
        self.per_address.retain_recent();
        self.per_address.shrink_to_fit();
    }
}

fn too_many(
    who: &str,
    not_until: &governor::NotUntil<<DefaultClock as Clock>::Instant>,
) -> Refusal {
    let wait = not_until.wait_time_from(DefaultClock::default().now());
    Refusal::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!("{who} has sent as many runs as it may this minute"),
    )
    .retry_after(wait)
}
