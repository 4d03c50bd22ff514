//! Formats of older schema steps, read only by the migrations.

pub mod postings10;
pub mod postings12;
