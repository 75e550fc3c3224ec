#ifndef CFFMPEG_H
#define CFFMPEG_H
// FFmpeg's types from its headers, and its functions through libavformat, libavcodec, libavutil
// and libswresample loaded (dlopen) when a file that is not MPEG audio is first decoded: linked
// at build time, libavcodec would bring a hundred libraries (x264, x265, dav1d, vpx, ...) into
// every podcli process, for `--version`, `list`, `sync` and MP3 playback too.
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>
#include <libavutil/mem.h>
#include <libswresample/swresample.h>

// Every FFmpeg function podcli calls that returns a value: (return type, name, parameters, arguments).
#define CFFMPEG_FUNCTIONS(X)                                                                                   \
    X(AVFormatContext *, avformat_alloc_context, (void), ())                                                   \
    X(int, avformat_open_input, (AVFormatContext * *context, const char *url, const AVInputFormat *format,     \
                                 AVDictionary **options), (context, url, format, options))                     \
    X(int, avformat_find_stream_info, (AVFormatContext * context, AVDictionary **options), (context, options)) \
    X(int, av_find_best_stream, (AVFormatContext * context, enum AVMediaType type, int wanted, int related,   \
                                 const AVCodec **decoder, int flags), (context, type, wanted, related, decoder, flags)) \
    X(int, av_read_frame, (AVFormatContext * context, AVPacket * packet), (context, packet))                  \
    X(int, avformat_seek_file, (AVFormatContext * context, int stream, int64_t minimum, int64_t timestamp,    \
                                int64_t maximum, int flags), (context, stream, minimum, timestamp, maximum, flags)) \
    X(int, avformat_index_get_entries_count, (const AVStream *stream), (stream))                              \
    X(const AVIndexEntry *, avformat_index_get_entry, (AVStream * stream, int index), (stream, index))        \
    X(AVIOContext *, avio_alloc_context, (unsigned char *buffer, int size, int writable, void *opaque,        \
                                          int (*read)(void *, uint8_t *, int), int (*write)(void *, uint8_t *, int), \
                                          int64_t (*seek)(void *, int64_t, int)),                              \
      (buffer, size, writable, opaque, read, write, seek))                                                     \
    X(const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id))                                       \
    X(const char *, avcodec_get_name, (enum AVCodecID id), (id))                                              \
    X(AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec))                              \
    X(int, avcodec_parameters_to_context, (AVCodecContext * context, const AVCodecParameters *parameters),    \
      (context, parameters))                                                                                   \
    X(int, avcodec_open2, (AVCodecContext * context, const AVCodec *codec, AVDictionary **options),           \
      (context, codec, options))                                                                               \
    X(int, avcodec_send_packet, (AVCodecContext * context, const AVPacket *packet), (context, packet))        \
    X(int, avcodec_receive_frame, (AVCodecContext * context, AVFrame * frame), (context, frame))              \
    X(AVPacket *, av_packet_alloc, (void), ())                                                                 \
    X(AVFrame *, av_frame_alloc, (void), ())                                                                   \
    X(void *, av_malloc, (size_t size), (size))                                                               \
    X(int, av_strerror, (int code, char *buffer, size_t size), (code, buffer, size))                         \
    X(int, swr_alloc_set_opts2, (struct SwrContext * *context, AVChannelLayout * outputLayout,               \
                                 enum AVSampleFormat outputFormat, int outputRate, AVChannelLayout * inputLayout, \
                                 enum AVSampleFormat inputFormat, int inputRate, int logOffset, void *log),   \
      (context, outputLayout, outputFormat, outputRate, inputLayout, inputFormat, inputRate, logOffset, log)) \
    X(int, swr_init, (struct SwrContext * context), (context))                                                \
    X(int, swr_convert, (struct SwrContext * context, uint8_t * *output, int outputCount, const uint8_t **input, \
                         int inputCount), (context, output, outputCount, input, inputCount))

// And those that return nothing.
#define CFFMPEG_PROCEDURES(X)                                                                                  \
    X(avformat_close_input, (AVFormatContext * *context), (context))                                          \
    X(avio_context_free, (AVIOContext * *context), (context))                                                 \
    X(avcodec_free_context, (AVCodecContext * *context), (context))                                           \
    X(avcodec_flush_buffers, (AVCodecContext * context), (context))                                           \
    X(av_packet_free, (AVPacket * *packet), (packet))                                                         \
    X(av_packet_unref, (AVPacket * packet), (packet))                                                         \
    X(av_frame_free, (AVFrame * *frame), (frame))                                                             \
    X(av_frame_unref, (AVFrame * frame), (frame))                                                             \
    X(av_free, (void *memory), (memory))                                                                      \
    X(av_log_set_level, (int level), (level))                                                                 \
    X(swr_free, (struct SwrContext * *context), (context))

// Filled once by cffmpeg_load, under pthread_once, before any reader can see it succeed.
struct cffmpeg_table {
#define CFFMPEG_POINTER(type, name, parameters, arguments) type(*name) parameters;
#define CFFMPEG_PROCEDURE_POINTER(name, parameters, arguments) void(*name) parameters;
    CFFMPEG_FUNCTIONS(CFFMPEG_POINTER)
    CFFMPEG_PROCEDURES(CFFMPEG_PROCEDURE_POINTER)
#undef CFFMPEG_POINTER
#undef CFFMPEG_PROCEDURE_POINTER
};
extern struct cffmpeg_table cffmpeg_table;

/// Loads FFmpeg's four libraries once and silences its log (it would print to stderr). Returns
/// 0, or -1 when a library or a function is missing; then `cffmpeg_missing` names it. The
/// other functions may be called only after it returned 0.
int cffmpeg_load(void);
const char *cffmpeg_missing(void);

// cff_NAME(...) calls FFmpeg's NAME(...).
#define CFFMPEG_WRAPPER(type, name, parameters, arguments)                                                    \
    static inline type cff_##name parameters { return cffmpeg_table.name arguments; }
#define CFFMPEG_PROCEDURE_WRAPPER(name, parameters, arguments)                                                \
    static inline void cff_##name parameters { cffmpeg_table.name arguments; }
CFFMPEG_FUNCTIONS(CFFMPEG_WRAPPER)
CFFMPEG_PROCEDURES(CFFMPEG_PROCEDURE_WRAPPER)
#undef CFFMPEG_WRAPPER
#undef CFFMPEG_PROCEDURE_WRAPPER

// Macros Swift cannot import.
static inline int cffmpeg_error_eof(void) { return AVERROR_EOF; }
static inline int cffmpeg_error_again(void) { return AVERROR(EAGAIN); }
static inline int cffmpeg_error_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int64_t cffmpeg_no_timestamp(void) { return AV_NOPTS_VALUE; }

#endif
