//! The server's media processor: previews and BlurHashes of uploaded images, made with the
//! `image` and `blurhash` crates on a blocking thread (decoding is CPU-bound).

use std::io::Cursor;

use async_trait::async_trait;
use fedblog_core::files::ImageKind;
use fedblog_core::media::{MediaProcessor, Preview};
use image::{DynamicImage, ImageFormat, ImageReader, Limits};

/// Decodes at most this many bytes of pixels (the upload limits keep real images far below).
const MAX_DECODE_BYTES: u64 = 512 * 1024 * 1024;

/// BlurHash components (Mastodon uses 4 x 4).
const BLURHASH_COMPONENTS: u32 = 4;

/// Makes previews with the `image` crate.
pub struct ImageProcessor;

#[async_trait]
impl MediaProcessor for ImageProcessor {
    async fn preview(&self, image: &[u8], max_pixels: u32) -> Result<Preview, String> {
        let bytes = image.to_vec();
        tokio::task::spawn_blocking(move || make_preview(&bytes, max_pixels))
            .await
            .map_err(|e| format!("preview task failed: {e}"))?
    }
}

/// The size that fits in `max_pixels` with the aspect ratio kept (never larger than the image).
fn fit(width: u32, height: u32, max_pixels: u32) -> (u32, u32) {
    let pixels = u64::from(width) * u64::from(height);
    if pixels <= u64::from(max_pixels) || pixels == 0 {
        return (width.max(1), height.max(1));
    }
    let scale = (f64::from(max_pixels) / pixels as f64).sqrt();
    (
        ((f64::from(width) * scale).floor() as u32).max(1),
        ((f64::from(height) * scale).floor() as u32).max(1),
    )
}

fn make_preview(bytes: &[u8], max_pixels: u32) -> Result<Preview, String> {
    let mut reader = ImageReader::new(Cursor::new(bytes))
        .with_guessed_format()
        .map_err(|e| e.to_string())?;
    let mut limits = Limits::default();
    limits.max_alloc = Some(MAX_DECODE_BYTES);
    reader.limits(limits);
    let decoded = reader.decode().map_err(|e| e.to_string())?;
    let (w, h) = fit(decoded.width(), decoded.height(), max_pixels);
    let small = decoded.thumbnail_exact(w, h);
    let opaque = !small.color().has_alpha();
    let (kind, format, out_image) = if opaque {
        (
            ImageKind::Jpeg,
            ImageFormat::Jpeg,
            DynamicImage::ImageRgb8(small.to_rgb8()),
        )
    } else {
        (ImageKind::Png, ImageFormat::Png, small.clone())
    };
    let mut encoded = Vec::new();
    out_image
        .write_to(&mut Cursor::new(&mut encoded), format)
        .map_err(|e| e.to_string())?;
    // BlurHash of a tiny copy: the hash only keeps low frequencies, and this keeps it fast.
    let tiny = small.thumbnail(64, 64).to_rgba8();
    let blurhash = blurhash::encode(
        BLURHASH_COMPONENTS,
        BLURHASH_COMPONENTS,
        tiny.width(),
        tiny.height(),
        tiny.as_raw(),
    )
    .ok();
    Ok(Preview {
        bytes: encoded,
        kind,
        width: w,
        height: h,
        blurhash,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn previews_fit_and_keep_the_aspect_ratio() {
        assert_eq!(fit(100, 50, 230_400), (100, 50));
        let (w, h) = fit(4000, 2000, 230_400);
        assert!(u64::from(w) * u64::from(h) <= 230_400);
        assert!((f64::from(w) / f64::from(h) - 2.0).abs() < 0.01, "{w}x{h}");
    }

    #[test]
    fn a_png_gets_a_smaller_preview_and_a_blurhash() {
        let img = image::RgbImage::from_fn(800, 600, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
        });
        let mut png = Vec::new();
        DynamicImage::ImageRgb8(img)
            .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
            .expect("encode");
        let p = make_preview(&png, 120_000).expect("preview");
        assert_eq!(p.kind, ImageKind::Jpeg);
        assert!(u64::from(p.width) * u64::from(p.height) <= 120_000);
        assert!((f64::from(p.width) / f64::from(p.height) - 4.0 / 3.0).abs() < 0.02);
        let decoded = image::load_from_memory(&p.bytes).expect("decodable preview");
        assert_eq!((decoded.width(), decoded.height()), (p.width, p.height));
        assert_eq!(p.blurhash.as_deref().map(str::len), Some(36));
        assert!(make_preview(b"not an image", 1000).is_err());
    }
}
