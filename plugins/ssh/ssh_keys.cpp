// OpenSSL 3 RSA-2048 generation, PKCS#1 PEM encoding and the OpenSSH public-key line
// (RFC 4253 "ssh-rsa" blob: string type, mpint e, mpint n; base64 without line breaks).
#include "ssh_keys.h"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>
#include <vector>

namespace ssh {
namespace {

struct Free {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
  void operator()(BIO* p) const { BIO_free(p); }
  void operator()(BIGNUM* p) const { BN_free(p); }
};
template <class T>
using Owned = std::unique_ptr<T, Free>;

jobhost::Status openSslError(const char* what) {
  char reason[256] = {0};
  ERR_error_string_n(ERR_get_error(), reason, sizeof(reason));
  ERR_clear_error();
  return jobhost::Status::error(std::string("ssh key generation failed: ") + what + ": " + reason);
}

void appendUint32(std::vector<unsigned char>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<unsigned char>(v >> shift));
}

void appendString(std::vector<unsigned char>& out, const std::string& s) {
  appendUint32(out, static_cast<uint32_t>(s.size()));
  out.insert(out.end(), s.begin(), s.end());
}

// RFC 4251 mpint of a non-negative number: big-endian, a leading zero byte when the top bit is set.
void appendMpint(std::vector<unsigned char>& out, const BIGNUM* n) {
  std::vector<unsigned char> bytes(static_cast<size_t>(BN_num_bytes(n)));
  BN_bn2bin(n, bytes.data());
  const bool pad = !bytes.empty() && (bytes[0] & 0x80) != 0;
  appendUint32(out, static_cast<uint32_t>(bytes.size() + (pad ? 1 : 0)));
  if (pad) out.push_back(0);
  out.insert(out.end(), bytes.begin(), bytes.end());
}

jobhost::Status privatePem(EVP_PKEY* key, std::string& out) {
  Owned<BIO> bio(BIO_new(BIO_s_mem()));
  if (!bio) return openSslError("BIO_new");
  if (PEM_write_bio_PrivateKey_traditional(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) != 1)
    return openSslError("PEM_write_bio_PrivateKey_traditional");
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  out.assign(data, static_cast<size_t>(size));
  return jobhost::Status::ok();
}

jobhost::Status publicLine(EVP_PKEY* key, std::string& out) {
  BIGNUM* rawN = nullptr;
  BIGNUM* rawE = nullptr;
  if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_N, &rawN) != 1) return openSslError("RSA modulus");
  Owned<BIGNUM> n(rawN);
  if (EVP_PKEY_get_bn_param(key, OSSL_PKEY_PARAM_RSA_E, &rawE) != 1) return openSslError("RSA exponent");
  Owned<BIGNUM> e(rawE);
  std::vector<unsigned char> blob;
  appendString(blob, "ssh-rsa");
  appendMpint(blob, e.get());
  appendMpint(blob, n.get());
  std::string b64(4 * ((blob.size() + 2) / 3) + 1, '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(b64.data()), blob.data(),
                                      static_cast<int>(blob.size()));
  b64.resize(static_cast<size_t>(written));
  out = "ssh-rsa " + b64 + "\n";
  return jobhost::Status::ok();
}

}  // namespace

jobhost::Status generateRsaKeyPair(SshKeyPair& out) {
  Owned<EVP_PKEY> key(EVP_RSA_gen(2048));
  if (!key) return openSslError("EVP_RSA_gen");
  if (jobhost::Status st = privatePem(key.get(), out.privateKeyPem); !st) return st;
  return publicLine(key.get(), out.publicKeyLine);
}

}  // namespace ssh
