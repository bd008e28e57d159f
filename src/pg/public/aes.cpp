#include "pg/public/aes.hpp"

#include <openssl/evp.h>

#include <cstring>

namespace idtypes::pg::aes {

struct Key {
	EVP_CIPHER_CTX *ctx;
	mutable bool failed; // an OpenSSL call failed since take_failure() last looked
};

namespace {

// One block in ECB mode without padding: exactly 16 bytes out for 16 in. FF1 is defined over AES itself
// (CIPH_K), which ECB of one block is.
void encrypt_block(const void *key, const std::uint8_t *in, std::uint8_t *out) noexcept
{
	const Key *k = static_cast<const Key *>(key);
	int len = 0;
	if (EVP_EncryptUpdate(k->ctx, out, &len, in, 16) != 1 || len != 16) {
		k->failed = true; // FF1's rounds go on with zeros; the caller raises before the result is used
		std::memset(out, 0, 16);
	}
}

} // namespace

Key *expand(const std::uint8_t (&bytes)[key_bytes]) noexcept
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	if (ctx == nullptr)
		return nullptr;
	Key *key = static_cast<Key *>(OPENSSL_malloc(sizeof(Key)));
	if (key == nullptr || EVP_EncryptInit_ex(ctx, EVP_aes_256_ecb(), nullptr, bytes, nullptr) != 1 ||
	    EVP_CIPHER_CTX_set_padding(ctx, 0) != 1) {
		EVP_CIPHER_CTX_free(ctx);
		OPENSSL_free(key);
		return nullptr;
	}
	key->ctx = ctx;
	key->failed = false;
	return key;
}

void release(Key *key) noexcept
{
	if (key == nullptr)
		return;
	EVP_CIPHER_CTX_free(key->ctx); // clears the key schedule
	OPENSSL_free(key);
}

bool take_failure(Key *key) noexcept
{
	const bool failed = key->failed;
	key->failed = false;
	return failed;
}

ff1::BlockCipher block_cipher(const Key *key) noexcept { return ff1::BlockCipher{encrypt_block, key}; }

bool fingerprint(const std::uint8_t (&bytes)[key_bytes], std::uint8_t (&out)[fingerprint_bytes]) noexcept
{
	static const char label[] = "idtypes keyring fingerprint";
	std::uint8_t input[sizeof label - 1 + key_bytes], digest[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	std::memcpy(input, label, sizeof label - 1);
	std::memcpy(input + sizeof label - 1, bytes, key_bytes);
	bool ok = EVP_Digest(input, sizeof input, digest, &len, EVP_sha256(), nullptr) == 1 && len >= fingerprint_bytes;
	OPENSSL_cleanse(input, sizeof input);
	if (ok)
		std::memcpy(out, digest, fingerprint_bytes);
	return ok;
}

bool keyed_digest(const char *label, const std::uint8_t *secret, std::size_t secret_len, const std::uint8_t *data,
                  std::size_t data_len, std::uint8_t (&out)[fingerprint_bytes]) noexcept
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	std::uint8_t digest[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	const bool ok = ctx != nullptr && EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr) == 1 &&
	                EVP_DigestUpdate(ctx, label, std::strlen(label)) == 1 &&
	                EVP_DigestUpdate(ctx, secret, secret_len) == 1 && EVP_DigestUpdate(ctx, data, data_len) == 1 &&
	                EVP_DigestFinal_ex(ctx, digest, &len) == 1 && len >= fingerprint_bytes;
	EVP_MD_CTX_free(ctx);
	if (ok)
		std::memcpy(out, digest, fingerprint_bytes);
	OPENSSL_cleanse(digest, sizeof digest);
	return ok;
}

} // namespace idtypes::pg::aes
