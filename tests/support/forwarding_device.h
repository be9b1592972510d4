// A Device that forwards every call to another: the base of the test doubles that
// count or refuse some calls (tests/runtime/fake_device.h's FakeDevice,
// tests/session/stress_test.cpp's FailingDevice), which override only those.
// Graph capture is not forwarded (graphs() stays null), so a double runs steps
// one by one whatever its inner device can do.
#pragma once

#include "backends/device.h"

#include <memory>
#include <utility>

namespace gk::test {

class ForwardingDevice : public Device {
 public:
  explicit ForwardingDevice(std::unique_ptr<Device> inner) : inner_(std::move(inner)) {}

  const DeviceInfo& info() const override { return inner_->info(); }
  MemoryInfo memory_info() const override { return inner_->memory_info(); }
  Result<DevPtr> alloc(size_t bytes) override { return inner_->alloc(bytes); }
  Status free(DevPtr ptr) override { return inner_->free(ptr); }
  Status upload(DevPtr dst, const void* src, size_t bytes) override { return inner_->upload(dst, src, bytes); }
  Status download(void* dst, DevPtr src, size_t bytes) override { return inner_->download(dst, src, bytes); }
  Status copy(DevPtr dst, DevPtr src, size_t bytes) override { return inner_->copy(dst, src, bytes); }
  Status memset(DevPtr dst, uint8_t value, size_t bytes) override { return inner_->memset(dst, value, bytes); }
  Result<const Kernel*> compile(const KernelSource& source, std::string_view entry) override {
    return inner_->compile(source, entry);
  }
  Status launch(const Kernel& kernel, const LaunchConfig& config, const KernelArgs& args) override {
    return inner_->launch(kernel, config, args);
  }
  Status sync() override { return inner_->sync(); }
  Result<EventId> record_event() override { return inner_->record_event(); }
  Result<double> elapsed_ms(EventId start, EventId end) override { return inner_->elapsed_ms(start, end); }
  void release_event(EventId event) override { inner_->release_event(event); }
  CompileStats compile_stats() const override { return inner_->compile_stats(); }

 protected:
  std::unique_ptr<Device> inner_;
};

}  // namespace gk::test
