#pragma once
// Reads a video back with FFmpeg's libraries for the export tests: its codec, picture
// size, the number of pictures it decodes to, the first and last pictures as RGB, and
// on request every picture.

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

#include <QString>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace looplab::ui::test {

struct VideoInfo {
    bool ok = false;
    std::string codec;
    int width = 0, height = 0;
    int frames = 0;          ///< decoded pictures
    std::vector<std::uint8_t> firstRgb;  ///< the first picture, decoded, RGB rows top first
    std::vector<std::uint8_t> lastRgb;   ///< the last one
    std::vector<std::vector<std::uint8_t>> everyRgb;  ///< all of them in order, if asked for
};

// Reads a video back with FFmpeg: every packet of its video stream decoded; with
// `keepEvery`, every picture kept.
inline VideoInfo readVideo(const QString& path, bool keepEvery = false) {
    VideoInfo info;
    AVFormatContext* fmt = nullptr;
    if (avformat_open_input(&fmt, path.toUtf8().constData(), nullptr, nullptr) < 0) return info;
    avformat_find_stream_info(fmt, nullptr);
    const int si = av_find_best_stream(fmt, AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
    if (si < 0) {
        avformat_close_input(&fmt);
        return info;
    }
    const AVCodecParameters* par = fmt->streams[si]->codecpar;
    const AVCodec* decoder = avcodec_find_decoder(par->codec_id);
    AVCodecContext* dec = avcodec_alloc_context3(decoder);
    avcodec_parameters_to_context(dec, par);
    avcodec_open2(dec, decoder, nullptr);
    info.codec = decoder->name;
    info.width = par->width;
    info.height = par->height;
    AVPacket* pkt = av_packet_alloc();
    AVFrame* frame = av_frame_alloc();
    auto drain = [&] {
        while (avcodec_receive_frame(dec, frame) == 0) {
            {
                SwsContext* sws = sws_getContext(frame->width, frame->height, AVPixelFormat(frame->format), frame->width,
                                                 frame->height, AV_PIX_FMT_RGB24, SWS_BICUBIC, nullptr, nullptr, nullptr);
                // swscale's vector code may write past the end of a row: convert into
                // padded, aligned rows, then keep them packed.
                const int padded = (frame->width * 3 + 63) / 64 * 64;
                std::vector<std::uint8_t> rows(size_t(padded) * size_t(frame->height + 1) + 64);
                std::uint8_t* dst[4] = {rows.data(), nullptr, nullptr, nullptr};
                const int dstStride[4] = {padded, 0, 0, 0};
                sws_scale(sws, frame->data, frame->linesize, 0, frame->height, dst, dstStride);
                sws_freeContext(sws);
                info.lastRgb.resize(size_t(frame->width) * frame->height * 3);
                for (int y = 0; y < frame->height; ++y)
                    std::copy_n(rows.data() + size_t(y) * padded, size_t(frame->width) * 3,
                                info.lastRgb.data() + size_t(y) * frame->width * 3);
                if (info.frames == 0) info.firstRgb = info.lastRgb;
                if (keepEvery) info.everyRgb.push_back(info.lastRgb);
            }
            ++info.frames;
        }
    };
    while (av_read_frame(fmt, pkt) >= 0) {
        if (pkt->stream_index == si) {
            avcodec_send_packet(dec, pkt);
            drain();
        }
        av_packet_unref(pkt);
    }
    avcodec_send_packet(dec, nullptr);
    drain();
    av_frame_free(&frame);
    av_packet_free(&pkt);
    avcodec_free_context(&dec);
    avformat_close_input(&fmt);
    info.ok = true;
    return info;
}

}  // namespace looplab::ui::test
