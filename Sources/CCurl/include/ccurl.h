#ifndef CCURL_H
#define CCURL_H
// libcurl for Swift: curl_easy_setopt and curl_easy_getinfo are variadic, which Swift
// cannot call, so each argument type gets a typed wrapper here.
#include <curl/curl.h>

typedef size_t (*ccurl_data_cb)(char *ptr, size_t size, size_t nmemb, void *userdata);
typedef int (*ccurl_xferinfo_cb)(void *clientp, curl_off_t dltotal, curl_off_t dlnow,
                                 curl_off_t ultotal, curl_off_t ulnow);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_str(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_ptr(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_write(CURL *handle, ccurl_data_cb callback, void *userdata);
CURLcode ccurl_setopt_header(CURL *handle, ccurl_data_cb callback, void *userdata);
CURLcode ccurl_setopt_xferinfo(CURL *handle, ccurl_xferinfo_cb callback, void *userdata);
CURLcode ccurl_getinfo_str(CURL *handle, CURLINFO info, const char **out);
CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *out);

#endif
