#include "export/VideoEncoder.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

#include <algorithm>
#include <array>
#include <climits>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <vector>

namespace looplab::ui {

namespace {

std::string avError(int code) {
    char buf[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, buf, sizeof buf);
    return buf;
}

// The GIF palette: 256 colours chosen from the first frame by median cut (Heckbert,
// "Color image quantization for frame buffer display", SIGGRAPH 1982) over its colours
// at 5 bits a channel, and a table from every 15-bit colour to its nearest palette entry,
// so each later frame costs one lookup a pixel. A rendered mechanism has few colours
// (background gradient, a shade range per body), which 256 entries cover closely; a
// fixed colour cube would band the gradient.
constexpr int kBins = 32 * 32 * 32;

int bin(const std::uint8_t* rgb) { return (rgb[0] >> 3) << 10 | (rgb[1] >> 3) << 5 | (rgb[2] >> 3); }

struct GifPalette {
    std::uint32_t colors[256] = {};   // 0xAARRGGBB
    std::vector<std::uint8_t> index;  // kBins entries

    void build(const std::uint8_t* rgb, int width, int height, int stride) {
        // Per bin: pixel count and channel sums (for the mean colour of a box).
        std::vector<std::uint32_t> count(kBins, 0);
        std::vector<std::array<double, 3>> sum(kBins, {0, 0, 0});
        for (int y = 0; y < height; ++y) {
            const std::uint8_t* p = rgb + std::ptrdiff_t(y) * stride;
            for (int x = 0; x < width; ++x, p += 3) {
                const int b = bin(p);
                ++count[size_t(b)];
                for (int c = 0; c < 3; ++c) sum[size_t(b)][size_t(c)] += p[c];
            }
        }
        std::vector<int> used;
        for (int b = 0; b < kBins; ++b)
            if (count[size_t(b)]) used.push_back(b);
        struct Box { size_t begin, end; };  // a range of `used`
        std::vector<Box> boxes{{0, used.size()}};
        auto channel = [](int b, int c) { return (b >> (10 - 5 * c)) & 31; };
        auto extent = [&](const Box& box, int* axis) {
            int best = -1;
            for (int c = 0; c < 3; ++c) {
                int lo = 31, hi = 0;
                for (size_t i = box.begin; i < box.end; ++i) {
                    lo = std::min(lo, channel(used[i], c));
                    hi = std::max(hi, channel(used[i], c));
                }
                if (hi - lo > best) {
                    best = hi - lo;
                    *axis = c;
                }
            }
            return best;
        };
        while (boxes.size() < 256) {
            // Split the box whose colours spread widest, weighted by its pixels.
            double bestScore = 0.0;
            size_t pick = boxes.size();
            int axis = 0;
            for (size_t k = 0; k < boxes.size(); ++k) {
                if (boxes[k].end - boxes[k].begin < 2) continue;
                int a = 0;
                double pixels = 0;
                for (size_t i = boxes[k].begin; i < boxes[k].end; ++i) pixels += count[size_t(used[i])];
                const double score = extent(boxes[k], &a) * std::sqrt(pixels);
                if (score > bestScore) {
                    bestScore = score;
                    pick = k;
                    axis = a;
                }
            }
            if (pick == boxes.size()) break;
            Box& box = boxes[pick];
            std::sort(used.begin() + std::ptrdiff_t(box.begin), used.begin() + std::ptrdiff_t(box.end),
                      [&](int a, int b) { return channel(a, axis) < channel(b, axis); });
            double total = 0, half = 0;
            for (size_t i = box.begin; i < box.end; ++i) total += count[size_t(used[i])];
            size_t cut = box.begin + 1;
            for (size_t i = box.begin; i + 1 < box.end; ++i) {
                half += count[size_t(used[i])];
                cut = i + 1;
                if (half >= total / 2) break;
            }
            const Box upper{cut, box.end};
            box.end = cut;
            boxes.push_back(upper);
        }
        std::vector<std::array<int, 3>> mean;
        for (const Box& box : boxes) {
            double n = 0, c[3] = {0, 0, 0};
            for (size_t i = box.begin; i < box.end; ++i) {
                n += count[size_t(used[i])];
                for (int k = 0; k < 3; ++k) c[k] += sum[size_t(used[i])][size_t(k)];
            }
            if (n > 0) mean.push_back({int(std::lround(c[0] / n)), int(std::lround(c[1] / n)), int(std::lround(c[2] / n))});
        }
        if (mean.empty()) mean.push_back({0, 0, 0});
        for (size_t i = 0; i < 256; ++i) {
            const std::array<int, 3>& m = mean[std::min(i, mean.size() - 1)];
            colors[i] = 0xFF000000u | std::uint32_t(m[0]) << 16 | std::uint32_t(m[1]) << 8 | std::uint32_t(m[2]);
        }
        // Nearest entry for every 15-bit colour (the centre of its bin).
        index.assign(kBins, 0);
        for (int b = 0; b < kBins; ++b) {
            const int r = channel(b, 0) * 8 + 4, g = channel(b, 1) * 8 + 4, bl = channel(b, 2) * 8 + 4;
            int best = 0, bestDistance = INT32_MAX;
            for (size_t i = 0; i < mean.size(); ++i) {
                const int dr = r - mean[i][0], dg = g - mean[i][1], db = bl - mean[i][2];
                const int distance = 2 * dr * dr + 4 * dg * dg + 3 * db * db;  // the eye weighs green most
                if (distance < bestDistance) {
                    bestDistance = distance;
                    best = int(i);
                }
            }
            index[size_t(b)] = std::uint8_t(best);
        }
    }
};

}  // namespace

std::optional<VideoFormat> videoFormatForPath(const std::string& path) {
    const size_t dot = path.rfind('.');
    if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return std::nullopt;
    std::string ext = path.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == "mp4") return VideoFormat::Mp4;
    if (ext == "gif") return VideoFormat::Gif;
    return std::nullopt;
}

struct VideoEncoder::Private {
    VideoFormat format = VideoFormat::Mp4;
    std::string path;
    int width = 0, height = 0;
    AVFormatContext* container = nullptr;
    AVCodecContext* codec = nullptr;
    AVStream* stream = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    SwsContext* scaler = nullptr;
    std::vector<std::uint8_t> input;  // the picture in padded rows for swscale
    std::unique_ptr<GifPalette> palette;  // chosen from the first GIF frame
    int inputStride = 0;
    bool headerWritten = false;
    bool finished = false;
    int frames = 0;

    ~Private() {
        sws_freeContext(scaler);
        av_frame_free(&frame);
        av_packet_free(&packet);
        avcodec_free_context(&codec);
        if (container) {
            if (container->pb) avio_closep(&container->pb);
            avformat_free_context(container);
        }
    }

    bool fail(std::string* error, const std::string& what, int code = 0) {
        if (error) *error = path + ": " + what + (code ? ": " + avError(code) : std::string());
        return false;
    }

    // Sends `f` (null flushes) and writes every packet the encoder gives back.
    bool encode(AVFrame* f, std::string* error) {
        int rc = avcodec_send_frame(codec, f);
        if (rc < 0) return fail(error, "cannot encode a frame", rc);
        for (;;) {
            rc = avcodec_receive_packet(codec, packet);
            if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF) return true;
            if (rc < 0) return fail(error, "cannot encode a frame", rc);
            av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
            packet->stream_index = stream->index;
            rc = av_interleaved_write_frame(container, packet);
            if (rc < 0) return fail(error, "cannot write", rc);
        }
    }
};

VideoEncoder::VideoEncoder() : d_(std::make_unique<Private>()) {}
VideoEncoder::~VideoEncoder() = default;

std::string VideoEncoder::checkSettings(VideoFormat format, int width, int height, double fps) {
    if (width < 16 || height < 16 || width > 4096 || height > 4096)
        return "the picture size must be between 16 and 4096 pixels each way (got " + std::to_string(width) + "x" +
               std::to_string(height) + ")";
    if (format == VideoFormat::Mp4 && (width % 2 || height % 2))
        return "an MP4 picture needs an even width and height (got " + std::to_string(width) + "x" +
               std::to_string(height) + ")";
    // A GIF's frame delays are whole hundredths of a second: above 50 frames/s many
    // browsers clamp them, so the video would play slower than asked.
    const double maxFps = format == VideoFormat::Gif ? 50.0 : 120.0;
    if (!(fps >= 1.0 && fps <= maxFps)) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "the frame rate of %s must be between 1 and %g frames per second (got %g)",
                      format == VideoFormat::Gif ? "a GIF" : "an MP4", maxFps, fps);
        return buf;
    }
    return {};
}

bool VideoEncoder::open(const std::string& path, VideoFormat format, int width, int height, double fps,
                        std::string* error) {
    d_ = std::make_unique<Private>();
    Private& d = *d_;
    // The encoders' own chatter (libx264's statistics) is not for our users; errors still
    // come back through the return codes.
    av_log_set_level(AV_LOG_ERROR);
    d.path = path;
    d.format = format;
    d.width = width;
    d.height = height;
    if (const std::string why = checkSettings(format, width, height, fps); !why.empty()) return d.fail(error, why);

    const char* muxer = format == VideoFormat::Mp4 ? "mp4" : "gif";
    int rc = avformat_alloc_output_context2(&d.container, nullptr, muxer, path.c_str());
    if (rc < 0 || !d.container) return d.fail(error, std::string("no ") + muxer + " muxer", rc);

    const AVCodec* encoder = nullptr;
    if (format == VideoFormat::Mp4) {
        encoder = avcodec_find_encoder_by_name("libx264");
        if (!encoder) encoder = avcodec_find_encoder(AV_CODEC_ID_MPEG4);
    } else {
        encoder = avcodec_find_encoder(AV_CODEC_ID_GIF);
    }
    if (!encoder) return d.fail(error, "this FFmpeg has no suitable encoder");
    d.stream = avformat_new_stream(d.container, nullptr);
    d.codec = avcodec_alloc_context3(encoder);
    if (!d.stream || !d.codec) return d.fail(error, "out of memory");

    // GIF delays are in hundredths of a second, so its time base is 1/100 s; MP4 uses
    // the frame rate itself as far as a rational of modest size can say it.
    const AVRational rate = av_d2q(fps, 100000);
    d.codec->width = width;
    d.codec->height = height;
    d.codec->framerate = rate;
    d.codec->time_base = format == VideoFormat::Gif ? AVRational{1, 100} : av_inv_q(rate);
    d.codec->pix_fmt = format == VideoFormat::Gif ? AV_PIX_FMT_PAL8 : AV_PIX_FMT_YUV420P;
    if (format == VideoFormat::Mp4) {
        d.codec->gop_size = std::max(1, int(std::lround(fps)));
        if (std::string(encoder->name) == "libx264") {
            av_opt_set(d.codec->priv_data, "preset", "fast", 0);
            av_opt_set(d.codec->priv_data, "crf", "20", 0);
        } else {
            d.codec->bit_rate = std::int64_t(width) * height * 4;  // ≈ 4 bits a pixel a frame at 25 fps
            d.codec->qmax = 8;
        }
    }
    if (d.container->oformat->flags & AVFMT_GLOBALHEADER) d.codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    rc = avcodec_open2(d.codec, encoder, nullptr);
    if (rc < 0) return d.fail(error, std::string("cannot open the ") + encoder->name + " encoder", rc);
    rc = avcodec_parameters_from_context(d.stream->codecpar, d.codec);
    if (rc < 0) return d.fail(error, "cannot set up the stream", rc);
    d.stream->time_base = d.codec->time_base;
    d.stream->avg_frame_rate = rate;

    d.frame = av_frame_alloc();
    d.packet = av_packet_alloc();
    if (!d.frame || !d.packet) return d.fail(error, "out of memory");
    d.frame->format = d.codec->pix_fmt;
    d.frame->width = width;
    d.frame->height = height;
    rc = av_frame_get_buffer(d.frame, 0);
    if (rc < 0) return d.fail(error, "cannot allocate a frame", rc);
    if (format == VideoFormat::Mp4) {
        d.scaler = sws_getContext(width, height, AV_PIX_FMT_RGB24, width, height, AV_PIX_FMT_YUV420P, SWS_BICUBIC,
                                  nullptr, nullptr, nullptr);
        if (!d.scaler) return d.fail(error, "cannot convert RGB to YUV 4:2:0");
    }

    rc = avio_open(&d.container->pb, path.c_str(), AVIO_FLAG_WRITE);
    if (rc < 0) return d.fail(error, "cannot create the file", rc);
    rc = avformat_write_header(d.container, nullptr);
    if (rc < 0) return d.fail(error, "cannot write the header", rc);
    d.headerWritten = true;
    return true;
}

bool VideoEncoder::addFrame(const std::uint8_t* rgb, int stride, std::string* error) {
    Private& d = *d_;
    if (!d.headerWritten || d.finished) return d.fail(error, "the video is not open");
    int rc = av_frame_make_writable(d.frame);
    if (rc < 0) return d.fail(error, "cannot write a frame", rc);
    if (d.format == VideoFormat::Mp4) {
        // swscale's vector code may read past the end of a row (and of the picture):
        // give it aligned rows with room to spare instead of the caller's buffer.
        d.inputStride = (d.width * 3 + 63) / 64 * 64;
        d.input.resize(size_t(d.inputStride) * size_t(d.height + 1));
        for (int y = 0; y < d.height; ++y)
            std::memcpy(d.input.data() + size_t(y) * size_t(d.inputStride), rgb + std::ptrdiff_t(y) * stride,
                        size_t(d.width) * 3);
        const std::uint8_t* src[4] = {d.input.data(), nullptr, nullptr, nullptr};
        const int srcStride[4] = {d.inputStride, 0, 0, 0};
        sws_scale(d.scaler, src, srcStride, 0, d.height, d.frame->data, d.frame->linesize);
        d.frame->pts = d.frames;
    } else {
        if (!d.palette) {
            d.palette = std::make_unique<GifPalette>();
            d.palette->build(rgb, d.width, d.height, stride);
        }
        std::memcpy(d.frame->data[1], d.palette->colors, sizeof d.palette->colors);
        const std::uint8_t* lookup = d.palette->index.data();
        for (int y = 0; y < d.height; ++y) {
            const std::uint8_t* in = rgb + std::ptrdiff_t(y) * stride;
            std::uint8_t* out = d.frame->data[0] + std::ptrdiff_t(y) * d.frame->linesize[0];
            for (int x = 0; x < d.width; ++x, in += 3) out[x] = lookup[bin(in)];
        }
        // Frame i starts at round(100 i / fps) hundredths, so the rate holds on average
        // even where 100/fps is not a whole number.
        const double fps = av_q2d(d.codec->framerate);
        d.frame->pts = std::llround(100.0 * d.frames / fps);
    }
    if (!d.encode(d.frame, error)) return false;
    ++d.frames;
    return true;
}

bool VideoEncoder::finish(std::string* error) {
    Private& d = *d_;
    if (!d.headerWritten || d.finished) return d.fail(error, "the video is not open");
    d.finished = true;
    if (!d.encode(nullptr, error)) return false;
    int rc = av_write_trailer(d.container);
    if (rc < 0) return d.fail(error, "cannot write the trailer", rc);
    rc = avio_closep(&d.container->pb);
    if (rc < 0) return d.fail(error, "cannot close the file", rc);
    return true;
}

std::string VideoEncoder::codecName() const { return d_->codec && d_->codec->codec ? d_->codec->codec->name : ""; }
int VideoEncoder::framesWritten() const { return d_->frames; }

}  // namespace looplab::ui
