#pragma once
// Writes a sequence of RGB pictures to a video file with FFmpeg's libraries: MP4 (H.264
// through libx264 when libavcodec has it, MPEG-4 Part 2 otherwise) or animated GIF (256
// colours chosen from the first frame by median cut, so frames are encoded as they come). Knows nothing
// of what the pictures show. Every FFmpeg failure comes back as a message naming the file.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace looplab::ui {

enum class VideoFormat { Mp4, Gif };

/// The format a file name asks for, by its extension (.mp4, .gif, any case).
std::optional<VideoFormat> videoFormatForPath(const std::string& path);

class VideoEncoder {
public:
    VideoEncoder();
    ~VideoEncoder();  ///< closes an unfinished file (it is left incomplete)
    VideoEncoder(const VideoEncoder&) = delete;
    VideoEncoder& operator=(const VideoEncoder&) = delete;

    /// Why a size or rate cannot be encoded in `format`, or an empty string: sizes from
    /// 16 to 4096 pixels, even for MP4 (4:2:0 chroma); rates from 1 to 120 frames/s (MP4) or 50 (GIF).
    static std::string checkSettings(VideoFormat format, int width, int height, double fps);

    /// Creates `path` (which must not need its format guessed from anything but
    /// `format`); false with *error set on failure.
    bool open(const std::string& path, VideoFormat format, int width, int height, double fps, std::string* error);
    /// Encodes one picture: `height` rows of `width` RGB triplets, top row first, rows
    /// `stride` bytes apart.
    bool addFrame(const std::uint8_t* rgb, int stride, std::string* error);
    /// Flushes the encoder and writes the file's trailer.
    bool finish(std::string* error);

    /// The codec in use ("libx264", "mpeg4", "gif"), once open.
    std::string codecName() const;
    int framesWritten() const;

private:
    struct Private;
    std::unique_ptr<Private> d_;
};

}  // namespace looplab::ui
