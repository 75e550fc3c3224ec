#ifndef CCRYPTO_H
#define CCRYPTO_H
// OpenSSL's libcrypto, for SHA-256 at its hand-tuned speed (EVP digest interface).
#include <openssl/evp.h>

#endif
