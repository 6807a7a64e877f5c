// A typed device allocation for tests: upload, download, poison. Throws on
// any runtime error, so a failing call fails the test that made it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_vendor.h"

namespace vt::testing {

inline void CheckGpu(cudaError_t error, const char* what) {
  if (error != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(error));
}

template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(size_t count) : count_(count) {
    CheckGpu(cudaMalloc(reinterpret_cast<void**>(&data_), Bytes() ? Bytes() : 16), "cudaMalloc");
  }
  explicit DeviceArray(const std::vector<T>& host) : DeviceArray(host.size()) { Upload(host); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { (void)cudaFree(data_); }

  void Upload(const std::vector<T>& host) {
    CheckGpu(cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<T> Download() const {
    CheckGpu(cudaDeviceSynchronize(), "kernel");
    std::vector<T> host(count_);
    CheckGpu(cudaMemcpy(host.data(), data_, Bytes(), cudaMemcpyDeviceToHost), "download");
    return host;
  }
  // Every byte set to `byte`, so output a kernel never wrote is visible.
  void Poison(uint8_t byte) { CheckGpu(cudaMemset(data_, byte, Bytes()), "cudaMemset"); }

  T* get() const { return data_; }
  size_t Bytes() const { return count_ * sizeof(T); }

 private:
  size_t count_;
  T* data_ = nullptr;
};

}  // namespace vt::testing
