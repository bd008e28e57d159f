// OpenSSL's AES as FF1's block cipher, for the core's tests (the core itself has no cipher).
#pragma once

#include <openssl/evp.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/ff1.hpp"

namespace idtypes::test {

inline std::vector<std::uint8_t> unhex(const std::string &hex)
{
	std::vector<std::uint8_t> out;
	for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
		out.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
	return out;
}

// AES-128/192/256 by key length, one ECB block per call.
class Aes {
public:
	explicit Aes(const std::vector<std::uint8_t> &key) : ctx_(EVP_CIPHER_CTX_new())
	{
		const EVP_CIPHER *kind = key.size() == 16   ? EVP_aes_128_ecb()
		                         : key.size() == 24 ? EVP_aes_192_ecb()
		                                            : EVP_aes_256_ecb();
		EVP_EncryptInit_ex(ctx_, kind, nullptr, key.data(), nullptr);
		EVP_CIPHER_CTX_set_padding(ctx_, 0);
	}
	~Aes() { EVP_CIPHER_CTX_free(ctx_); }
	Aes(const Aes &) = delete;
	Aes &operator=(const Aes &) = delete;

	ff1::BlockCipher cipher() const { return ff1::BlockCipher{encrypt, ctx_}; }

private:
	static void encrypt(const void *key, const std::uint8_t *in, std::uint8_t *out) noexcept
	{
		int len = 0;
		EVP_EncryptUpdate(static_cast<EVP_CIPHER_CTX *>(const_cast<void *>(key)), out, &len, in, 16);
	}
	EVP_CIPHER_CTX *ctx_;
};

} // namespace idtypes::test
